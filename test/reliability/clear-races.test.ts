import { DynamoControlStore } from '../../lambda/infrastructure/store/contacts/dynamo-control-store';
import type { ClearWrite } from '../../lambda/control/ports';
import { runClear } from '../../lambda/control/run-clear';
import type { ClearableField } from '../../lambda/contacts/domain/cleared';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { DynamoEnrichmentStore } from '../../lambda/infrastructure/store/contacts/dynamo-enrichment-store';
import type { PassWrite } from '../../lambda/contacts/enrichment/ports';
import { mapWithConcurrency } from '../../lambda/contacts/enrichment/run-bulk';
import { runPass } from '../../lambda/contacts/enrichment/run-pass';
import { configuredSources } from '../../lambda/contacts/enrichment/sources/sources-wiring';
import { enrichmentContext, referencePerson, uniqueEmail } from '../support/enrichment';
import { newFactoryId, tables, testDoc, UNHURRIED } from '../support/local-api';
import { SIZES } from './sizes';

/**
 * Clearing racing a caller's upsert and enrichment passes on one contact,
 * on DynamoDB Local (docs/architecture.md#how-the-invariants-hold-under-concurrency):
 * the caller's value is never lost (it ends in the field, or recorded as
 * the value an operator cleared), and a cleared value never comes back
 * through enrichment. Sampled in `npm test`; full size with `npm run stress`.
 */
const BY = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/race';
// No timeout per attempt: DynamoDB Local on a loaded machine queues, and these invariants are not about timeouts.
const doc = testDoc(UNHURRIED);
const contacts = dynamoDependencies(doc, tables).contacts;
const control = new DynamoControlStore(doc, tables.contacts);
/** Enrichment on the same client: one pool of connections for every racing call. */
const enrichment = enrichmentContext({ store: new DynamoEnrichmentStore(doc, tables.contacts), sources: configuredSources(doc, tables.reference) });
const PASSES = 3;

let tick = 0;
const upsert = async (factoryId: string, body: Record<string, unknown>) =>
  (await upsertContact(contacts, factoryId, upsertBody.parse(body), { now: new Date().toISOString(), creationToken: `t${(tick += 1)}` })).contact;
const clear = (factoryId: string, id: string, fields: ClearableField[], store = control) =>
  runClear(store, factoryId, id, { fields, by: BY, at: new Date().toISOString() });
const stored = async (factoryId: string, id: string) => (await control.getContact(factoryId, id))!;

describe('a write landing inside a clear or a pass', () => {
  test("a caller upsert between the clear's read and its write is kept", async () => {
    const factoryId = newFactoryId('race');
    const email = uniqueEmail();
    const contact = await upsert(factoryId, { email, title: 'Wrong' });
    let raced = false;
    class Racing extends DynamoControlStore {
      override async applyClear(write: ClearWrite) {
        if (!raced) {
          raced = true;
          await upsert(factoryId, { email, title: 'Caller' });
        }
        return super.applyClear(write);
      }
    }
    const result = await clear(factoryId, contact.id, ['title'], new Racing(doc, tables.contacts));
    expect(result).toMatchObject({ cleared: [], changed: ['title'] });
    expect((await stored(factoryId, contact.id)).title).toBe('Caller');
  });

  test('a pass planned on an empty field does not fill it with a value written and cleared while it ran', async () => {
    const factoryId = newFactoryId('race');
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Same Title' });
    const contact = await upsert(factoryId, { email });
    let raced = false;
    class Racing extends DynamoEnrichmentStore {
      override async applyPass(write: PassWrite) {
        if (!raced) {
          raced = true;
          await upsert(factoryId, { email, title: 'Same Title' });
          await clear(factoryId, contact.id, ['title']);
        }
        return super.applyPass(write);
      }
    }
    const pass = await runPass({ ...enrichment, store: new Racing(doc, tables.contacts) }, factoryId, contact.id, { bulk: false });
    expect(pass).toMatchObject({ ignored: ['title'] });
    expect((await stored(factoryId, contact.id)).title).toBeUndefined();
  });
});

/** `SIZES.parallel` contacts the dataset knows as "Vendor Title"; enriched with it first when `enriched`. */
async function population(factoryId: string, label: string, enriched: boolean) {
  return mapWithConcurrency(
    Array.from({ length: SIZES.parallel }, (_, i) => i),
    8,
    async (i) => {
      const email = uniqueEmail(`${label}${i}-`);
      await referencePerson(email, { title: 'Vendor Title', location: 'Quito' });
      const contact = await upsert(factoryId, { email });
      if (enriched) await runPass(enrichment, factoryId, contact.id, { bulk: false });
      return { id: contact.id, email, createdAt: contact.createdAt };
    },
  );
}

describe(`${SIZES.parallel} contacts, each with a clear, a caller upsert and ${PASSES + 1} enrichment passes at once`, () => {
  /** Runs the race on every contact and checks the invariants on each. */
  async function race(factoryId: string, ids: { id: string; email: string; createdAt: string }[]) {
    await Promise.all(
      ids.flatMap(({ id, email }) => [
        // And one pass right after the clear: it meets the cleared field, with or without the caller's value yet.
        clear(factoryId, id, ['title']).then(() => runPass(enrichment, factoryId, id, { bulk: false })),
        upsert(factoryId, { email, title: `Caller ${id}` }),
        ...Array.from({ length: PASSES }, () => runPass(enrichment, factoryId, id, { bulk: false })),
      ]),
    );
    for (const { id, createdAt } of ids) {
      const after = await stored(factoryId, id);
      const caller = `Caller ${id}`;
      // The caller's value is in the field, or it is what an operator cleared: never silently gone.
      expect([after.title, after.cleared?.title?.value]).toContain(caller);
      // Enrichment never wrote back the value that was cleared.
      if (after.title !== undefined) expect(after.title).not.toBe(after.cleared?.title?.value);
      expect(after.createdAt).toBe(createdAt);
    }
  }

  test(
    'on contacts enriched with the value being cleared',
    async () => {
      const factoryId = newFactoryId('race');
      await race(factoryId, await population(factoryId, 're', true));
    },
    SIZES.testTimeoutMs,
  );

  test(
    'on contacts a pass is filling at the same time',
    async () => {
      const factoryId = newFactoryId('race');
      await race(factoryId, await population(factoryId, 'rf', false));
    },
    SIZES.testTimeoutMs,
  );

  test(
    'without a caller write, the cleared field stays empty whatever the passes do',
    async () => {
      const factoryId = newFactoryId('race');
      const ids = (await population(factoryId, 'rn', true)).map((contact) => contact.id);
      await Promise.all(
        ids.flatMap((id) => [
          clear(factoryId, id, ['title']).then(() => runPass(enrichment, factoryId, id, { bulk: false })),
          ...Array.from({ length: PASSES }, () => runPass(enrichment, factoryId, id, { bulk: false })),
        ]),
      );
      for (const id of ids) {
        const after = await stored(factoryId, id);
        expect(after.title).toBeUndefined();
        expect(after.cleared?.title?.value).toBe('Vendor Title');
      }
    },
    SIZES.testTimeoutMs,
  );
});
