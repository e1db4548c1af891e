import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { factoryFeedback, issueFeedback } from '../../lambda/infrastructure/store/feedback/feedback-reader';
import { storedEventOf } from '../../lambda/infrastructure/store/reports/event-items';
import { eventKey, feedbackKey } from '../../lambda/infrastructure/store/schema';
import { randomClient, SITE } from '../support/ingest';
import {
  bearer,
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
 * User feedback through the Sentry envelope endpoint on DynamoDB Local (docs/feedback.md): `feedback` events as
 * @sentry/browser's captureFeedback sends them and legacy `user_report` items, stored scrubbed, tied to the issue
 * of their event (whichever came first) and to their email's contact, listed newest first.
 */
let api: LocalApi;
beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

const hex = () => randomUUID().replace(/-/g, '');
const uuidOf = (id: string) => `${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20)}`;
const envelope = (items: [string, unknown][], header: Record<string, unknown> = {}): string =>
  `${JSON.stringify({ sent_at: new Date().toISOString(), ...header })}\n${items
    .map(([type, payload]) => `${JSON.stringify({ type })}\n${typeof payload === 'string' ? payload : JSON.stringify(payload)}`)
    .join('\n')}\n`;

async function tenant() {
  const factoryId = newFactoryId('fdbk');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE]);
  const secret = bearer((await issueKey(factoryId)).key);
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const send = (items: [string, unknown][], header?: Record<string, unknown>) =>
    api.request('POST', `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`, {
      headers: { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: envelope(items, header),
      localAddress: randomClient(),
    });
  const upsert = async (email: string): Promise<string> => {
    const created = await api.request('POST', '/api/v1/contacts', { headers: secret, body: { email } });
    expect(created.status).toBe(201);
    return created.json.contact.id as string;
  };
  const list = (limit = 50, cursor?: string) => factoryFeedback(testDoc(), tables, factoryId, { limit, ...(cursor ? { cursor } : {}) });
  return { factoryId, send, upsert, list };
}

/** An error event as @sentry/browser sends it. */
const errorEvent = (eventId: string, where = 'pay') => ({
  event_id: eventId,
  platform: 'javascript',
  exception: {
    values: [
      {
        type: 'TypeError',
        value: `${where} failed`,
        stacktrace: { frames: [{ filename: `${SITE}/${where}.js`, function: where, lineno: 3, colno: 7, in_app: true }] },
      },
    ],
  },
});

/** A feedback event as @sentry/browser's captureFeedback sends it (type feedback, its words under contexts.feedback). */
const feedbackEvent = (eventId: string, feedback: Record<string, unknown>) => ({
  event_id: eventId,
  type: 'feedback',
  platform: 'javascript',
  timestamp: Date.now() / 1000,
  contexts: { feedback: { source: 'api', ...feedback } },
});

async function issueOf(factoryId: string, eventId: string): Promise<string> {
  const found = await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk: eventKey(factoryId, uuidOf(eventId)) } }));
  const issueId = found.Item ? storedEventOf(found.Item).issueId : undefined;
  expect(issueId).toMatch(/^iss_/);
  return issueId as string;
}

test("a feedback event is stored scrubbed, tied to its event's issue and to its email's contact, and its email is in no log line", async () => {
  const { factoryId, send, upsert, list } = await tenant();
  const contactId = await upsert('ada@engines.example');
  const errorId = hex();
  expect((await send([['event', errorEvent(errorId)]])).status).toBe(200);
  const issueId = await issueOf(factoryId, errorId);

  const written = jest.spyOn(process.stdout, 'write');
  const feedbackId = hex();
  const answer = await send(
    [
      [
        'feedback',
        feedbackEvent(feedbackId, {
          message: 'Checkout broke. My card is 4111 1111 1111 1111, token Bearer abcdefghijklmnopqrstuvwxyz0123',
          contact_email: 'Ada@Engines.example',
          name: 'Ada',
          url: `${SITE}/checkout`,
          associated_event_id: errorId,
        }),
      ],
    ],
    { event_id: feedbackId },
  );
  const lines = written.mock.calls.map(([line]) => String(line)).join('');
  written.mockRestore();
  expect([answer.status, answer.json]).toEqual([200, { id: feedbackId }]);
  expect(lines.toLowerCase()).not.toContain('ada@engines.example');

  const { items } = await list();
  expect(items).toEqual([
    expect.objectContaining({
      feedbackId: uuidOf(feedbackId),
      source: 'feedback',
      issueId,
      contactId,
      associatedEventId: uuidOf(errorId),
      url: `${SITE}/checkout`,
      reporter: { email: 'ada@engines.example', name: 'Ada' },
    }),
  ]);
  const message = items[0]?.message ?? '';
  expect(message).toContain('Checkout broke.');
  expect(message).not.toContain('4111');
  expect(message).not.toContain('abcdefghijklmnopqrstuvwxyz0123');
  expect(await issueFeedback(testDoc(), tables, factoryId, issueId, { limit: 10 })).toEqual([expect.objectContaining({ feedbackId: uuidOf(feedbackId) })]);
  // One write unit: the item as JSON (longer than DynamoDB counts it: quotes, colons, commas) stays under 1 KB.
  const stored = await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk: feedbackKey(factoryId, uuidOf(feedbackId)) } }));
  expect(JSON.stringify(stored.Item).length).toBeLessThan(1024);
});

test("a legacy user_report is tied by its event_id; feedback sent before its event finds the event's issue when read", async () => {
  const { factoryId, send, list } = await tenant();
  const early = hex();
  const feedbackId = hex();
  // The feedback first: its event is not stored yet.
  expect((await send([['feedback', feedbackEvent(feedbackId, { message: 'It froze', associated_event_id: early })]])).status).toBe(200);
  expect((await send([['event', errorEvent(early, 'freeze')]])).status).toBe(200);
  const lateIssue = await issueOf(factoryId, early);

  const reported = hex();
  expect((await send([['event', errorEvent(reported, 'parse')]])).status).toBe(200);
  const reportedIssue = await issueOf(factoryId, reported);
  const answer = await send([['user_report', { event_id: reported, name: 'Bob', email: 'bob@example.com', comments: 'It said bad.' }]]);
  expect(answer.status).toBe(200);

  const { items } = await list();
  expect(items.map(({ source, message, issueId }) => ({ source, message, issueId }))).toEqual([
    { source: 'user_report', message: 'It said bad.', issueId: reportedIssue },
    { source: 'feedback', message: 'It froze', issueId: lateIssue },
  ]);
  // No contact with bob's email: no contact id.
  expect(items[0]).not.toHaveProperty('contactId');
  expect(await issueFeedback(testDoc(), tables, factoryId, lateIssue, { limit: 10 })).toEqual([
    expect.objectContaining({ message: 'It froze', issueId: lateIssue }),
  ]);
  expect(await issueFeedback(testDoc(), tables, factoryId, reportedIssue, { limit: 10 })).toEqual([expect.objectContaining({ message: 'It said bad.' })]);
});

test('feedback with no message or no id is dropped (200), a feedback item that is not JSON refuses the envelope whole (400), the same feedback twice is stored once', async () => {
  const { send, list } = await tenant();
  expect((await send([['feedback', feedbackEvent(hex(), { message: '   ' })]])).status).toBe(200);
  expect((await send([['feedback', { type: 'feedback', contexts: { feedback: { message: 'no id' } } }]])).status).toBe(200);
  expect((await send([['user_report', { event_id: 'not-hex', comments: 'x' }]])).status).toBe(200);
  const refused = await send([
    ['feedback', feedbackEvent(hex(), { message: 'kept?' })],
    ['user_report', '{bad'],
  ]);
  expect(refused.status).toBe(400);
  expect(refused.json.error).toMatch(/Item 2 \(user_report\) is not valid JSON/);
  const once = hex();
  for (let i = 0; i < 2; i += 1) expect((await send([['feedback', feedbackEvent(once, { message: 'twice' })]])).status).toBe(200);
  expect((await list()).items.map((item) => item.message)).toEqual(['twice']);
});

test('names a sender chose (__proto__, constructor) are plain data; text is clipped to its stated limit', async () => {
  const { factoryId, send } = await tenant();
  const id = hex();
  const payload = `{"event_id":"${id}","type":"feedback","contexts":{"__proto__":{"feedback":{"message":"from the prototype"}},"feedback":{"message":"${'m'.repeat(5000)}","name":"${'n'.repeat(300)}","constructor":"x","__proto__":{"message":"polluted"}}}}`;
  expect((await send([['feedback', payload]])).status).toBe(200);
  const stored = await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk: feedbackKey(factoryId, uuidOf(id)) } }));
  expect(stored.Item?.message).toBe('m'.repeat(4096));
  expect(stored.Item?.reporter).toEqual({ name: 'n'.repeat(200) });
  expect(({} as Record<string, unknown>).message).toBeUndefined();
});

test('a factory of many feedback pages newest first across its shards, with a cursor that goes on where the page ended', async () => {
  const { send, list } = await tenant();
  const sent: string[] = [];
  for (let i = 0; i < 7; i += 1) {
    expect((await send([['feedback', feedbackEvent(hex(), { message: `note ${i}` })]])).status).toBe(200);
    sent.push(`note ${i}`);
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await list(3, cursor);
    expect(page.items.length).toBeLessThanOrEqual(3);
    seen.push(...page.items.map((item) => item.message));
    cursor = page.next;
  } while (cursor !== undefined);
  const whole = (await list()).items;
  expect(seen).toEqual(whole.map((item) => item.message));
  expect([...seen].sort()).toEqual([...sent].sort());
  const times = whole.map((item) => item.receivedAt);
  expect(times).toEqual([...times].sort().reverse());
});
