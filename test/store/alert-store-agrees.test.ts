import fc from 'fast-check';
import type { AlertType } from '../../lambda/alerts/alert';
import type { AlertStore, AttemptEnd, Delivery, LogPositions } from '../../lambda/alerts/ports';
import { MemoryAlertStore } from '../../lambda/infrastructure/memory/memory-alert-store';
import { DynamoAlertStore } from '../../lambda/infrastructure/store/alerts/dynamo-alert-store';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The DynamoDB alert store writes its rules as conditions and transactions;
 * the in-memory twin (lambda/infrastructure/memory/memory-alert-store.ts) states them
 * plainly. Any sequence of calls must get the same answers from both, and
 * leave the same destinations, settings and delivery log behind.
 */
const doc = testDoc();

const DESTINATIONS = ['dst_000000000000000a', 'dst_000000000000000b', 'dst_000000000000000c'];
const ALERTS = ['new:iss_1:t1', 'new:iss_2:t1', 'spike:iss_1:t2'];
const minute = (n: number) => `2031-01-01T12:${String(n).padStart(2, '0')}:00.000Z`;
const at = fc.nat(9).map(minute);
const destinationId = fc.constantFrom(...DESTINATIONS);
const alertId = fc.constantFrom(...ALERTS);
/** A delivery's place in its destination's log: when its alert happened, then the alert. */
const sk = fc.tuple(fc.nat(3), alertId).map(([n, id]) => `${minute(n)}#${id}`);
const spellKey = fc.constantFrom('relA', 'relB');
const spellHour = fc.integer({ min: 490_000, max: 490_002 });
const disabled = fc.record({ at, by: fc.constantFrom('arn:a', 'arn:b'), reason: fc.constantFrom('noisy', 'gone') });
const end: fc.Arbitrary<AttemptEnd> = fc.oneof(
  fc.record({ status: fc.constant('delivered' as const), record: fc.record({ attempt: fc.nat(3), at, latencyMs: fc.nat(99), status: fc.constant(200) }) }),
  fc.record({
    status: fc.constant('pending' as const),
    record: fc.record({ attempt: fc.nat(3), at, latencyMs: fc.nat(99), status: fc.constant(503) }),
    nextAttemptAt: at,
  }),
  fc.record({
    status: fc.constant('failed' as const),
    record: fc.record({ attempt: fc.nat(3), at, latencyMs: fc.nat(99), error: fc.constant('refused') }),
    reason: fc.constant('gave up'),
  }),
);

const step = fc.oneof(
  fc.record({
    call: fc.constant('saveSettings' as const),
    spikeMultiple: fc.option(fc.constantFrom(2, 5), { nil: undefined }),
    spikeFloor: fc.option(fc.constantFrom(1, 40), { nil: undefined }),
    crashFreeThreshold: fc.option(fc.constantFrom(0.9, 0.995), { nil: undefined }),
    at,
  }),
  fc.record({ call: fc.constant('addDestination' as const), destinationId, at, types: fc.constantFrom<AlertType[]>([], ['issue.created']) }),
  fc.record({ call: fc.constant('removeDestination' as const), destinationId }),
  fc.record({ call: fc.constant('rotateSecret' as const), destinationId, at }),
  fc.record({ call: fc.constant('setDisabled' as const), destinationId, disabled: fc.option(disabled, { nil: undefined }) }),
  fc.record({ call: fc.constant('noteFailure' as const), destinationId, at }),
  fc.record({ call: fc.constant('noteSuccess' as const), destinationId, at }),
  fc.record({ call: fc.constant('disableIfFailingSince' as const), destinationId, since: at, disabled }),
  fc.record({ call: fc.constant('recordAlert' as const), alertId, at }),
  fc.record({ call: fc.constant('markFannedOut' as const), alertId, at }),
  fc.record({ call: fc.constant('createDelivery' as const), destinationId, sk, at }),
  fc.record({ call: fc.constant('claimAttempt' as const), destinationId, sk, attempt: fc.integer({ min: 1, max: 3 }), at, leaseUntil: at }),
  fc.record({ call: fc.constant('finishAttempt' as const), destinationId, sk, attempt: fc.integer({ min: 1, max: 3 }), end }),
  fc.record({ call: fc.constant('skipDelivery' as const), destinationId, sk }),
  fc.record({ call: fc.constant('deliveryLog' as const), limit: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ call: fc.constant('openSpell' as const), spellKey, hour: spellHour }),
  fc.record({ call: fc.constant('closeSpell' as const), spellKey, hour: spellHour }),
  fc.record({ call: fc.constant('spellClosed' as const), spellKey, hour: spellHour }),
);
type Step = typeof step extends fc.Arbitrary<infer T> ? T : never;

/** One call on a store, its answer (a thrown error as its name). */
async function run(store: AlertStore, factoryId: string, taken: Step): Promise<unknown> {
  try {
    switch (taken.call) {
      case 'saveSettings': {
        const change = {
          ...(taken.spikeMultiple === undefined ? {} : { spikeMultiple: taken.spikeMultiple }),
          ...(taken.spikeFloor === undefined ? {} : { spikeFloor: taken.spikeFloor }),
          ...(taken.crashFreeThreshold === undefined ? {} : { crashFreeThreshold: taken.crashFreeThreshold }),
        };
        return await store.saveSettings(factoryId, change, taken.at, 'arn:op');
      }
      case 'addDestination':
        return await store.addDestination({
          factoryId,
          destinationId: taken.destinationId,
          url: 'https://hooks.example.com/a',
          types: taken.types,
          createdAt: taken.at,
          createdBy: 'arn:op',
          secret: 'whsec_one',
        });
      case 'removeDestination':
        return await store.removeDestination(factoryId, taken.destinationId);
      case 'rotateSecret':
        return await store.rotateSecret(factoryId, taken.destinationId, `whsec_${taken.at}`, taken.at, taken.at);
      case 'setDisabled':
        return await store.setDisabled(factoryId, taken.destinationId, taken.disabled);
      case 'noteFailure':
        return await store.noteFailure(factoryId, taken.destinationId, taken.at);
      case 'noteSuccess':
        return await store.noteSuccess(factoryId, taken.destinationId, taken.at);
      case 'disableIfFailingSince':
        return await store.disableIfFailingSince(factoryId, taken.destinationId, taken.since, taken.disabled);
      case 'recordAlert':
        return await store.recordAlert({
          factoryId,
          alertId: taken.alertId,
          type: 'issue.created',
          issueId: 'iss_1',
          occurredAt: taken.at,
          at: taken.at,
          expiresAt: 1_950_000_000,
        });
      case 'markFannedOut':
        return await store.markFannedOut(factoryId, taken.alertId, taken.at);
      case 'createDelivery':
        return await store.createDelivery(deliveryOf(factoryId, taken.destinationId, taken.sk, taken.at));
      case 'claimAttempt':
        return await store.claimAttempt({ factoryId, destinationId: taken.destinationId, sk: taken.sk }, taken.attempt, taken.at, taken.leaseUntil);
      case 'finishAttempt':
        return await store.finishAttempt({ factoryId, destinationId: taken.destinationId, sk: taken.sk }, taken.attempt, taken.end);
      case 'skipDelivery':
        return await store.skipDelivery({ factoryId, destinationId: taken.destinationId, sk: taken.sk }, 'destination removed');
      case 'deliveryLog':
        return await wholeLog(store, factoryId, taken.limit);
      case 'openSpell':
        return await store.openSpell(factoryId, taken.spellKey, taken.hour, 1_950_000_000);
      case 'closeSpell':
        return await store.closeSpell(factoryId, taken.spellKey, taken.hour);
      case 'spellClosed':
        return await store.spellClosed(factoryId, taken.spellKey, taken.hour);
    }
  } catch (error) {
    return { threw: error instanceof Error ? error.name : String(error) };
  }
}

function deliveryOf(factoryId: string, destinationId: string, sk: string, at: string): Delivery {
  const [occurredAt = '', alertId = ''] = sk.split('#');
  return {
    factoryId,
    destinationId,
    sk,
    alertId,
    webhookId: `msg_${alertId}`,
    type: 'issue.created',
    issueId: 'iss_1',
    occurredAt,
    body: '{}',
    status: 'pending',
    attempts: 0,
    createdAt: at,
    nextAttemptAt: at,
    history: [],
    expiresAt: 1_950_000_000,
  };
}

/** Every page of the log of every destination, `limit` at a time, as the control room pages it. */
async function wholeLog(store: AlertStore, factoryId: string, limit: number): Promise<Delivery[][]> {
  const pages: Delivery[][] = [];
  let after: LogPositions | undefined;
  do {
    const page = await store.deliveryLog(factoryId, DESTINATIONS, { limit, ...(after ? { after } : {}) });
    pages.push(page.deliveries);
    after = page.next;
  } while (after && pages.length < 20);
  return pages;
}

test('the alert store: DynamoDB and memory agree on every sequence of calls, and leave the same state behind', async () => {
  const dynamo = new DynamoAlertStore(doc, tables.alerts);
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 30 }), async (steps) => {
      const memory = new MemoryAlertStore();
      const factoryId = newFactoryId('alerts');
      for (const [index, taken] of steps.entries()) {
        expect([index, taken.call, await run(dynamo, factoryId, taken)]).toEqual([index, taken.call, await run(memory, factoryId, taken)]);
      }
      expect(await dynamo.destinations(factoryId)).toEqual(await memory.destinations(factoryId));
      expect(await dynamo.settings(factoryId)).toEqual(await memory.settings(factoryId));
      expect(await wholeLog(dynamo, factoryId, 2)).toEqual(await wholeLog(memory, factoryId, 2));
    }),
    { numRuns: 25 },
  );
}, 120_000);

test('the delivery log of several destinations: one alert delivered to two destinations is listed by destination, descending, on both stores', async () => {
  const factoryId = newFactoryId('log');
  const stores = [new DynamoAlertStore(doc, tables.alerts), new MemoryAlertStore()];
  for (const store of stores) {
    // Added in ascending order, so an order keeping insertion for one sort key would list a before b.
    for (const id of DESTINATIONS.slice(0, 2)) await store.createDelivery(deliveryOf(factoryId, id, `${minute(1)}#new:iss_1:t1`, minute(1)));
  }
  for (const store of stores) {
    const log = await store.deliveryLog(factoryId, DESTINATIONS, { limit: 1 });
    expect(log.deliveries.map((delivery) => delivery.destinationId)).toEqual(['dst_000000000000000b']);
    const rest = await store.deliveryLog(factoryId, DESTINATIONS, { limit: 5, ...(log.next ? { after: log.next } : {}) });
    expect(rest.deliveries.map((delivery) => delivery.destinationId)).toEqual(['dst_000000000000000a']);
    expect(rest.next).toBeUndefined();
  }
});

test("a release's spell on both stores: opened once, closed once into the recovery to send, answered again until marked sent", async () => {
  for (const store of [new DynamoAlertStore(doc, tables.alerts), new MemoryAlertStore()]) {
    const factoryId = newFactoryId('spell');
    expect(await store.closeSpell(factoryId, 'rel', 490_005)).toBeUndefined();
    await store.openSpell(factoryId, 'rel', 490_001, 1_950_000_000);
    await store.openSpell(factoryId, 'rel', 490_002, 1_950_000_000);
    // A healthy hour before the spell began closes nothing.
    expect(await store.closeSpell(factoryId, 'rel', 490_000)).toBeUndefined();
    expect(await store.closeSpell(factoryId, 'rel', 490_003)).toBe(490_001);
    // A notifier stopped before sending it: the retry is answered the same spell, until the recovery is marked sent.
    expect(await store.closeSpell(factoryId, 'rel', 490_003)).toBe(490_001);
    await store.spellClosed(factoryId, 'rel', 490_001);
    expect(await store.closeSpell(factoryId, 'rel', 490_003)).toBeUndefined();
  }
});
