import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { itemStateOf, type ItemState } from '../../lambda/ingest/issues/lifecycle';
import { Expression } from '../../lambda/infrastructure/store/expression';
import { counterKinds, factsOf, ISSUE_ITEM, stateCondition, type ItemKind } from '../../lambda/infrastructure/store/reports/issue-items';
import { tables, testDoc } from '../support/local-api';

/**
 * The issue lifecycle exists once, as the decision table's states (lambda/ingest/issues/lifecycle.ts), and the
 * DynamoDB tally writes each state as a condition (issue-items.ts, stateCondition). Here the two are held equal on
 * DynamoDB Local: for any item an issue or a counter may be (or none), the condition of exactly one state holds,
 * the state itemStateOf gives the same item. Each condition is checked by a transaction of one ConditionCheck, which
 * writes nothing.
 */
const doc = testDoc();
const NOW = 2_000_000_000;

/** The conditions of the states that hold on the item under `key`. */
async function statesHolding(key: string, kind: ItemKind, states: readonly ItemState[]): Promise<ItemState[]> {
  const holds = await Promise.all(
    states.map(async (state) => {
      const expression = new Expression();
      expression.when(...stateCondition(expression, kind, state, NOW));
      const check = { ConditionCheck: { TableName: tables.reports, Key: { pk: key }, ...expression.forCondition() } };
      try {
        await doc.send(new TransactWriteCommand({ TransactItems: [check] }));
        return true;
      } catch (error) {
        if ((error as Error).name !== 'TransactionCanceledException') throw error;
        return false;
      }
    }),
  );
  return states.filter((_, i) => holds[i]);
}

const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: undefined });

/** An issue item in any of its states: near its expiry on either side, any status, with or without each map of its bookkeeping. */
const issueItem = fc.record({
  expiresAt: fc.integer({ min: NOW - 2, max: NOW + 2 }),
  status: fc.constantFrom('open', 'resolved', 'ignored'),
  marks: maybe(fc.constant({ shard1: `${'0'.repeat(39)}7@${NOW}` })),
  m5: maybe(fc.constant({})),
  h1: maybe(fc.constant({ '2033-05-18T03': 2 })),
  d1: maybe(fc.constant({})),
});

/** A counter item (filtered or set-aside events): with or without marks, an expiry past or not (counters count on until removed). */
const counterItem = fc.record({
  marks: maybe(fc.constant({})),
  expiresAt: maybe(fc.integer({ min: NOW - 2, max: NOW + 2 })),
  browserExtension: maybe(fc.nat()),
});

const defined = (item: Record<string, unknown>) => Object.fromEntries(Object.entries(item).filter(([, value]) => value !== undefined));

async function agreeOn(kind: ItemKind, states: readonly ItemState[], item: Record<string, unknown> | undefined): Promise<void> {
  const key = `probe#${kind.name}#${randomUUID()}`;
  if (item) await doc.send(new PutCommand({ TableName: tables.reports, Item: { pk: key, ...defined(item) } }));
  const expected = itemStateOf(item && factsOf(kind, defined(item)), NOW);
  expect(await statesHolding(key, kind, states)).toEqual([expected]);
}

test("an issue item: exactly one state's condition holds on DynamoDB, the state the decision table's classifier gives it", async () => {
  await fc.assert(
    fc.asyncProperty(maybe(issueItem), (item) => agreeOn(ISSUE_ITEM, ['absent', 'expired', 'unmarked', 'active', 'resolved'], item)),
    { numRuns: 40 },
  );
}, 60_000);

test('a counter item: exactly one of absent, unmarked and active holds, the one the classifier gives it, whatever its expiry', async () => {
  for (const kind of Object.values(counterKinds)) {
    await fc.assert(
      fc.asyncProperty(maybe(counterItem), (item) => agreeOn(kind, ['absent', 'unmarked', 'active'], item)),
      { numRuns: 15 },
    );
  }
}, 60_000);

test('a counter has no expired or resolved state: asking for one is a mistake, said at once', () => {
  const expression = new Expression();
  expect(() => stateCondition(expression, counterKinds.filtered, 'expired', NOW)).toThrow(/never expires/);
  expect(() => stateCondition(expression, counterKinds.setAside, 'resolved', NOW)).toThrow(/no status/);
});
