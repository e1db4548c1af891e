import { randomUUID } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest, type ControlAnswer } from '../../lambda/control/handle-request';
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { DEFAULT_DYNAMO_CONFIG, createDocumentClient } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoContactStore } from '../../lambda/infrastructure/store/contacts/dynamo-contact-store';
import { newFactoryId, tables } from '../support/local-api';
import { startTestProxy, type Gate, type TestProxy } from '../support/semantics';

/**
 * An erasure racing an upsert of the same email, on the semantics proxy
 * (docs/privacy.md#erasure): the proxy holds one request of the erasure at
 * a chosen step while the upsert runs, so each interleaving is made, not
 * hoped for. Whichever it is, the person ends erased, or as a new contact
 * holding only what the racing upsert sent: never the old contact, part of
 * it (a cleared value, its enrichment), or a contact the erasure reported
 * deleted still there.
 */
const BY = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/dpo' };

let proxy: TestProxy;
let doc: DynamoDBDocumentClient;
beforeEach(async () => {
  proxy = await startTestProxy({ throttling: false });
  doc = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: proxy.endpoint, maxAttempts: 1 });
});
afterEach(async () => {
  doc.destroy();
  await proxy.close();
});

/** A control room of its own (a fresh container: the person secret not read yet) through the proxy. */
const controlRoom = () => controlDependencies(doc, tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });

async function existingPerson() {
  const factoryId = newFactoryId('race');
  const email = `ada.${randomUUID().slice(0, 8)}@example.com`;
  const contacts = new DynamoContactStore(doc, tables.contacts);
  const upsert = (body: Record<string, unknown>, now: string) =>
    upsertContact(contacts, factoryId, upsertBody.parse({ email, ...body }), { now, creationToken: randomUUID() });
  const { contact } = await upsert({ title: 'Countess', phone: '+44 20 7946 0000' }, '2026-11-27T09:00:00.000Z');
  const deps = controlRoom();
  await handleControlRequest(deps, { operation: 'contacts.clear', factoryId, contactId: contact.id, fields: ['phone'] }, BY);
  return { factoryId, email, contactId: contact.id, upsert, deps };
}

/** Runs the erasure, holding the request `gate` matches until the upsert answered. */
async function eraseAround<T>(
  person: Awaited<ReturnType<typeof existingPerson>>,
  gate: Gate,
  racing: () => Promise<T>,
): Promise<{ erased: ControlAnswer; raced: T }> {
  const erasing = handleControlRequest(person.deps, { operation: 'contacts.erase', factoryId: person.factoryId, email: person.email }, BY);
  await gate.reached;
  const raced = await racing();
  gate.release();
  return { erased: await erasing, raced };
}

const contactNow = (person: { factoryId: string; contactId: string; deps: ReturnType<typeof controlRoom> }) =>
  person.deps.store.getContact(person.factoryId, person.contactId);

test('an upsert landing between the erasure reading the contact and deleting it is erased with it: the delete refused on what it read, the contact read again and deleted', async () => {
  const person = await existingPerson();
  proxy.reset();
  // The person secret is read (once per container) after the contact and before the delete: held there.
  const gate = proxy.gate((request) => request.operation === 'UpdateItem' && request.body.TableName === tables.keys);

  const { erased, raced } = await eraseAround(person, gate, () => person.upsert({ name: 'Ada' }, '2026-11-27T09:05:00.000Z'));

  expect(raced.created).toBe(false);
  expect(erased.body).toMatchObject({ contact: true, erased: true });
  expect(await contactNow(person)).toBeUndefined();
  // The contact's two deletes: the first refused (the contact was not as read), the second after reading it again;
  // and the vendor record's one (none there: refused by its condition).
  expect(proxy.stats().operations.DeleteItem?.requests).toBe(3);
});

test('an upsert landing after the erasure deleted the contact creates a new contact holding only what it sent', async () => {
  const person = await existingPerson();
  // After the delete the erasure looks for the person's reports: held there.
  const gate = proxy.gate((request) => request.operation === 'Query' && request.body.IndexName === 'byPerson');

  const { erased, raced } = await eraseAround(person, gate, () => person.upsert({ name: 'Ada' }, '2026-11-27T09:05:00.000Z'));

  expect(raced.created).toBe(true);
  expect(erased.body).toMatchObject({ contact: true, erased: true });
  const after = await contactNow(person);
  expect(after).toMatchObject({ name: 'Ada', createdAt: '2026-11-27T09:05:00.000Z' });
  expect(after).not.toHaveProperty('title');
  expect(after).not.toHaveProperty('cleared');
});

test('an upsert racing each step of an erasure ends erased or as a new contact, never as the old contact or part of it', async () => {
  const steps: [string, (request: { operation: string; body: Record<string, unknown> }) => boolean][] = [
    ['the contact read', (request) => request.operation === 'GetItem' && request.body.TableName === tables.contacts],
    ['the person secret', (request) => request.operation === 'UpdateItem' && request.body.TableName === tables.keys],
    ['the pass markers', (request) => request.operation === 'Query' && request.body.TableName === tables.contacts],
    ['the reports', (request) => request.operation === 'Query' && request.body.IndexName === 'byPerson'],
  ];
  for (const [step, match] of steps) {
    const person = await existingPerson();
    const gate = proxy.gate(match as never);
    const { erased, raced } = await eraseAround(person, gate, () => person.upsert({ name: 'Ada' }, '2026-11-27T09:05:00.000Z'));
    const after = await contactNow(person);
    const ending =
      after === undefined
        ? 'erased'
        : after.createdAt === '2026-11-27T09:05:00.000Z' && after.title === undefined && after.cleared === undefined
          ? 'a new contact'
          : 'half-erased';
    expect([step, ending, erased.status]).toEqual([step, raced.created ? 'a new contact' : 'erased', 200]);
  }
});
