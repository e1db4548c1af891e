import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../../../lambda/kernel/api-key';
import { InvalidReportError } from '../../../../lambda/ingest/errors';
import { storedEvent, type ReadEvents, type RequestReceipt } from '../../../../lambda/ingest/receive-events';
import { storeAndAnswer, type IngestProtocol } from '../../../../lambda/ingest/api/store-and-answer';
import type { IngestSlot } from '../../../../lambda/ingest/api/ingest-slot';
import { newRequestState, type RequestState } from '../../../../lambda/infrastructure/http/request-state';
import { json } from '../../../../lambda/infrastructure/http/responses';
import { MemoryIngestKeys } from '../../../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../../../lambda/infrastructure/memory/memory-report-store';
import { errorMessage, proxyEvent } from '../../../support/events';

const KEY_HASH = hashSecret('dfpk_store_and_answer');
const NOW = Date.parse('2026-11-25T10:00:00.000Z');

/** The ports and a request state as the route's checks leave them: caller, key and origin known. */
function setup(rateLimit = 600) {
  const keys = new MemoryIngestKeys();
  const key = { factoryId: 'fac_store', keyId: 'key_0000000000000009', origins: ['https://app.example.com'], rateLimit };
  keys.issue(KEY_HASH, { type: 'publishable', ...key });
  const reports = new MemoryReportStore();
  const state: RequestState<IngestSlot> = newRequestState<IngestSlot>({
    sender: { key, keyHash: KEY_HASH },
    client: { origin: 'https://app.example.com' },
  });
  state.caller = { factoryId: key.factoryId, keyId: key.keyId };
  return { deps: { reports, keys, issueLimits: new MemoryIssueLimiter(), retentionDays: 90, now: () => NOW }, reports, state };
}

/** A protocol whose request is a list of messages, answered with its accepted count. */
const messages = (listsRejected: boolean): IngestProtocol<string[]> => ({
  read: (body, receipt: RequestReceipt): ReadEvents => ({
    valid: body.map((message, index) => storedEvent({ eventId: randomUUID(), type: 'message', message }, receipt, index)),
    rejected: [],
  }),
  listsRejected,
  answer: (outcome, events, body) => json(299, { accepted: outcome.accepted, read: events.valid.length, sent: body.length }),
});

const run = <Body>(protocol: IngestProtocol<Body>, body: Body, given = setup()) =>
  storeAndAnswer(given.deps, protocol)({ event: proxyEvent({ httpMethod: 'POST' }), state: given.state, body });

const rejectedBy = async (promise: Promise<unknown>) =>
  promise.then(
    () => {
      throw new Error('expected a refusal');
    },
    (error: unknown) => error as { statusCode: number; headers: Record<string, string> },
  );

describe('storeAndAnswer: the one store path of every ingest protocol', () => {
  test("stores the protocol's events and answers in its words", async () => {
    const given = setup();
    const answer = await run(messages(true), ['one', 'two'], given);
    expect(answer).toMatchObject({ statusCode: 299 });
    expect(JSON.parse(answer.body)).toEqual({ accepted: 2, read: 2, sent: 2 });
    expect([...given.reports.events.values()].map((event) => event.message).sort()).toEqual(['one', 'two']);
    expect(given.reports.events.size).toBe(2);
  });

  test('notes what was stored for the log line and metrics, the rejected count only for a protocol that lists them', async () => {
    const listing = setup();
    await run(messages(true), ['x'], listing);
    expect(listing.state.logFields).toMatchObject({ accepted: 1, duplicates: 0, rejected: 0, filtered: 0 });
    expect(listing.state.counts).toMatchObject({ EventsAccepted: 1, EventsRejected: 0 });
    const whole = setup();
    await run(messages(false), ['x'], whole);
    expect(whole.state.logFields).not.toHaveProperty('rejected');
    expect(whole.state.counts).not.toHaveProperty('EventsRejected');
  });

  test('a request with nothing to store is answered without touching the store or the limits', async () => {
    const given = setup(1);
    const answer = await run(messages(false), [], given);
    expect(JSON.parse(answer.body)).toEqual({ accepted: 0, read: 0, sent: 0 });
    expect(given.reports.events.size).toBe(0);
    // The key's one request a minute is still there.
    expect(JSON.parse((await run(messages(false), ['later'], given)).body)).toMatchObject({ accepted: 1 });
  });

  test("a protocol's refusal of the whole request is 422 with its words, counted as rejected", async () => {
    const given = setup();
    const refusing: IngestProtocol<null> = {
      read: () => {
        throw new InvalidReportError('event 1: no message', 3);
      },
      listsRejected: false,
      answer: () => json(200, {}),
    };
    const error = await rejectedBy(run(refusing, null, given));
    expect(error.statusCode).toBe(422);
    expect(errorMessage(error)).toBe('event 1: no message');
    expect(given.state.counts).toEqual({ EventsRejected: 3 });
  });

  test("the key's limit is 429 with Retry-After for every protocol", async () => {
    const given = setup(1);
    await run(messages(true), ['first'], given);
    const error = await rejectedBy(run(messages(true), ['second'], given));
    expect(error.statusCode).toBe(429);
    expect(Number(error.headers['Retry-After'])).toBeGreaterThan(0);
    expect(given.state.logFields).toMatchObject({ limitedBy: 'key' });
  });
});
