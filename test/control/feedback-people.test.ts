import { randomUUID } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { DynamoPersonSecret } from '../../lambda/infrastructure/store/keys/dynamo-person-secret';
import { PersonKeys } from '../../lambda/kernel/person-key';
import { jsonLines, runScriptInProcess } from '../support/commands';
import { randomClient, SITE } from '../support/ingest';
import { tableItems } from '../support/items';
import {
  bearer,
  endpoint,
  issueKey,
  issuePublishableKey,
  newFactoryId,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  type LocalApi,
} from '../support/local-api';

/**
 * User feedback where the people are (docs/feedback.md), on DynamoDB Local: sent through the Sentry endpoint, listed
 * by `reports feedback` (tied to its issue and contact, cursor paged), on the contact's page and in the person's
 * export, and gone after the person's erasure, however the erasure names them.
 */
const BY = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/dpo' };
let api: LocalApi;
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(() => api.close());

const call = (request: Record<string, unknown>) => handleControlRequest(control, request, BY);
const hex = () => randomUUID().replace(/-/g, '');
const envelope = (items: [string, unknown][]) =>
  `${JSON.stringify({ sent_at: new Date().toISOString() })}\n${items.map(([type, payload]) => `${JSON.stringify({ type })}\n${JSON.stringify(payload)}`).join('\n')}\n`;
const reports = (...args: string[]) => runScriptInProcess('reports', args, { DYNAMODB_ENDPOINT: endpoint() });

/** A person with a contact, an error of theirs, and feedback on it twice: a widget's feedback event and a legacy user report. */
async function personWithFeedback() {
  const factoryId = newFactoryId('fbpp');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE]);
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const send = async (items: [string, unknown][]) => {
    const answer = await api.request('POST', `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`, {
      headers: { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: envelope(items),
      localAddress: randomClient(),
    });
    expect(answer.status).toBe(200);
  };
  const email = `grace.${hex().slice(0, 8)}@navy.example`;
  const created = await api.request('POST', '/api/v1/contacts', { headers: bearer((await issueKey(factoryId)).key), body: { email } });
  expect(created.status).toBe(201);
  const contactId = created.json.contact.id as string;
  const errorId = hex();
  await send([['event', { event_id: errorId, exception: { values: [{ type: 'TypeError', value: 'bug in the relay' }] } }]]);
  await send([
    [
      'feedback',
      { event_id: hex(), type: 'feedback', contexts: { feedback: { message: 'A moth in relay 70', contact_email: email, associated_event_id: errorId } } },
    ],
  ]);
  await send([['user_report', { event_id: errorId, email: email.toUpperCase(), name: 'Grace', comments: 'Still there' }]]);
  return { factoryId, email, contactId };
}

/** The factory's items of the reports and contacts tables holding the text, any letter case. */
async function holding(factoryId: string, text: string): Promise<string[]> {
  const found: string[] = [];
  for (const table of [tables.reports, tables.contacts])
    for (const item of await tableItems(table)) {
      const json = JSON.stringify(item);
      if (json.includes(factoryId) && json.toLowerCase().includes(text.toLowerCase())) found.push(String(item.pk ?? item.sk));
    }
  return found;
}

test('`reports feedback` prints each feedback newest first tied to its issue and contact, and pages with a cursor line', async () => {
  const { factoryId, contactId } = await personWithFeedback();
  const all = await reports('feedback', '--factory', factoryId);
  expect(all.status).toBe(0);
  const lines = jsonLines(all.stdout);
  expect(lines.map((line) => line.message)).toEqual(['Still there', 'A moth in relay 70']);
  expect(lines.map((line) => line.contactId)).toEqual([contactId, contactId]);
  expect(lines[0]?.issueId).toMatch(/^iss_/);
  expect(lines[1]?.issueId).toBe(lines[0]?.issueId);

  const first = jsonLines((await reports('feedback', '--factory', factoryId, '--limit', '1')).stdout);
  expect(first).toEqual([expect.objectContaining({ message: 'Still there' }), { cursor: expect.any(String) }]);
  const rest = jsonLines((await reports('feedback', '--factory', factoryId, '--limit', '1', '--cursor', first[1]?.cursor)).stdout);
  expect(rest).toEqual([expect.objectContaining({ message: 'A moth in relay 70' })]);

  const bad = await reports('feedback', '--factory', factoryId, '--limit', '0');
  expect([bad.status, bad.stderr]).toEqual([2, expect.stringContaining('limit')]);
});

test("the contact's page and the person's export list their feedback", async () => {
  const { factoryId, email, contactId } = await personWithFeedback();
  const shown = await call({ operation: 'contacts.show', factoryId, contactId });
  expect(shown.status).toBe(200);
  const listed = shown.body.reports as Record<string, unknown>[];
  expect(listed.filter((report) => report.kind === 'feedback').map((report) => report.message)).toEqual(['Still there', 'A moth in relay 70']);
  const exported = await call({ operation: 'contacts.export-person', factoryId, email });
  expect(exported.status).toBe(200);
  expect(JSON.stringify(exported.body)).toContain('A moth in relay 70');
  expect(JSON.stringify(exported.body)).toContain('Still there');
});

test.each([
  ['email', (p: { email: string }) => ({ email: p.email })],
  ['contact id', (p: { contactId: string }) => ({ contactId: p.contactId })],
])('an erasure by %s deletes the feedback and its issue links: no table holds its words or the email after it', async (_by, ref) => {
  const person = await personWithFeedback();
  const erased = await call({ operation: 'contacts.erase', factoryId: person.factoryId, ...ref(person) });
  expect([erased.status, erased.body.feedback, erased.body.erased]).toEqual([200, 2, true]);
  expect(await holding(person.factoryId, person.email)).toEqual([]);
  expect(await holding(person.factoryId, 'A moth in relay 70')).toEqual([]);
  expect((await tableItems(tables.reports)).filter((item) => String(item.pk).startsWith(`flink#${person.factoryId}#`))).toEqual([]);
  expect((await call({ operation: 'feedback.list', factoryId: person.factoryId })).body.feedback).toEqual([]);
});

test('an erasure by person key alone (after a restore) deletes the feedback too; the contact, not named, stays', async () => {
  const person = await personWithFeedback();
  const personKey = await new PersonKeys(new DynamoPersonSecret(testDoc(), tables.keys)).keyOf(person.factoryId, person.email);
  const erased = await call({ operation: 'contacts.erase', factoryId: person.factoryId, personKey });
  expect([erased.status, erased.body.feedback]).toEqual([200, 2]);
  expect(await holding(person.factoryId, person.email)).toEqual([person.contactId]);
  expect((await call({ operation: 'feedback.list', factoryId: person.factoryId })).body.feedback).toEqual([]);
});
