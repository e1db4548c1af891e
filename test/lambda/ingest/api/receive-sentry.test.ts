import { sentryProjectId, sentryPublicKey } from '../../../../lambda/ingest/sentry/dsn';
import { KEY_ID, memoryIngestApi, ORIGIN, PK, revokedAfterCheck } from '../../../support/ingest-memory';

/** A Sentry SDK's request once its body was framed and its key checked (api/receive-sentry.ts), through the handler on in-memory ports. */
const AUTH = { 'x-sentry-auth': `Sentry sentry_key=${sentryPublicKey(PK)}, sentry_version=7`, origin: ORIGIN, 'content-type': 'text/plain;charset=UTF-8' };
const ENVELOPE = `/ingest/sentry/api/${sentryProjectId(KEY_ID)}/envelope/`;
let sequence = 0;
const nextId = () => {
  sequence += 1;
  return `a1b2c3d4e5f60718293a${String(sequence).padStart(12, '0')}`;
};
const envelope = (...items: [string, unknown][]) =>
  `{"event_id":"${nextId()}"}\n${items.map(([type, payload]) => `{"type":"${type}"}\n${JSON.stringify(payload)}\n`).join('')}`;
const sentryEvent = (value = 'x is undefined') => ({ event_id: nextId(), exception: { values: [{ type: 'TypeError', value }] } });

describe('a Sentry request, received', () => {
  test("its event is stored as an own event, and the answer is 200 with the event's id as Sentry writes it", async () => {
    const { reports, send } = memoryIngestApi();
    const sent = sentryEvent();
    const answer = await send({ path: ENVELOPE, body: envelope(['event', sent]), headers: AUTH });
    expect(answer).toEqual(expect.objectContaining({ status: 200, body: { id: sent.event_id } }));
    expect([...reports.events.values()]).toEqual([expect.objectContaining({ exception: expect.objectContaining({ type: 'TypeError' }), origin: ORIGIN })]);
  });

  test('an envelope of other items only (a session) is 200 and stores nothing', async () => {
    const { reports, send } = memoryIngestApi();
    expect((await send({ path: ENVELOPE, body: envelope(['session', { sid: 's' }]), headers: AUTH })).status).toBe(200);
    expect(reports.events.size).toBe(0);
  });

  test('the legacy store endpoint takes one event the same way', async () => {
    const { reports, send } = memoryIngestApi();
    const sent = sentryEvent();
    const path = `/ingest/sentry/api/${sentryProjectId(KEY_ID)}/store/`;
    expect(await send({ path, body: JSON.stringify(sent), headers: AUTH })).toMatchObject({ status: 200, body: { id: sent.event_id } });
    expect(reports.events.size).toBe(1);
  });

  test("a DSN with another key's project id is 401", async () => {
    const { send } = memoryIngestApi();
    const answer = await send({
      path: `/ingest/sentry/api/${sentryProjectId('key_0000000000000009')}/envelope/`,
      body: envelope(['event', sentryEvent()]),
      headers: AUTH,
    });
    expect(answer).toMatchObject({ status: 401, body: { error: expect.stringMatching(/project id does not belong to its key/) } });
  });

  test('an event the reader refuses is 422 naming it by its place, and none of the envelope is stored', async () => {
    const { reports, send } = memoryIngestApi();
    const answer = await send({ path: ENVELOPE, body: envelope(['event', sentryEvent()], ['event', { event_id: nextId() }]), headers: AUTH });
    expect(answer).toMatchObject({ status: 422, body: { error: expect.stringMatching(/^event 2: /) } });
    expect(reports.events.size).toBe(0);
  });

  test("an error over its share of the key's limit is 429 with Retry-After and X-Sentry-Rate-Limits, which the SDKs read", async () => {
    const { send } = memoryIngestApi({ rateLimit: 20 });
    const statuses: number[] = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await send({ path: ENVELOPE, body: envelope(['event', sentryEvent('storm')]), headers: AUTH })).status);
    const refused = await send({ path: ENVELOPE, body: envelope(['event', sentryEvent('storm')]), headers: AUTH });
    expect(statuses).toEqual([200, 200]);
    expect(refused.status).toBe(429);
    expect(refused.headers['X-Sentry-Rate-Limits']).toBe(`${refused.headers['Retry-After']}::key`);
  });

  test('a key revoked while the request was under way is 401 saying so', async () => {
    const { send } = memoryIngestApi({ keys: revokedAfterCheck });
    expect(await send({ path: ENVELOPE, body: envelope(['event', sentryEvent()]), headers: AUTH })).toMatchObject({
      status: 401,
      body: { error: expect.stringMatching(/has been revoked/) },
    });
  });
});
