import { randomUUID } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { CONTROL_CALLER } from '../support/control-memory';
import { randomClient } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * The own SDK's sessions (POST /ingest/v1/sessions, docs/release-health.md) through the local host on DynamoDB
 * Local: recorded by the per-address limiter's write as Sentry's are, counted by the run's tally into the same
 * release items, read back by the control room's `releases.show` (`reports release`). The pages themselves, in three
 * engines: test/browser/sdk/sessions.test.ts.
 */
let api: LocalApi;
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
const SITE = 'https://shop.example.com';

beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

test("own updates count once per status reached, whatever is resent, into the same counters as a Sentry session's, their user the visitor (the page sends none); an invalid one counts nothing", async () => {
  const factoryId = newFactoryId('ownsess');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE]);
  const headers = { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' };
  // Each visitor (client address) sends fewer requests than its per-address burst: no 429 whatever the pace.
  const [first, second, third] = [randomClient(), randomClient(), randomClient()];
  const own = (from: string, session: Record<string, unknown>) =>
    api.request('POST', `/ingest/v1/sessions?key=${key}`, { headers, body: JSON.stringify({ session }), localAddress: from });
  const started = new Date(Date.now() - 1000).toISOString();
  const page = (sid: string, fields: Record<string, unknown>) => ({ sid, init: false, started, status: 'ok', errors: 0, release: 'shop@2.0.0', ...fields });
  const [a, b, c, d] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
  const sends: [string, Record<string, unknown>][] = [
    [first, page(a, { init: true })],
    [first, page(a, { init: true })], // the SDK's retry of an unanswered start: nothing new
    [first, page(d, { init: true })], // the same visitor's next page load: another session, the same user
    [second, page(b, { init: true })],
    [second, page(b, { status: 'errored', errors: 1 })],
    [second, page(b, { status: 'crashed', errors: 2 })],
    [second, page(b, { status: 'crashed', errors: 2 })],
    [third, page(c, { init: true, status: 'crashed', errors: 1 })], // a start that was lost, said again with the crash
  ];
  for (const [from, session] of sends) expect((await own(from, session)).status).toBe(202);
  const invalid = await own(randomClient(), page(randomUUID(), { init: true, status: 'unknown' }));
  expect(invalid.status).toBe(422);
  // A Sentry SDK's page of the same release and environment counts into the same items.
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const sentry = { sid: randomUUID(), init: true, started, status: 'ok', errors: 0, attrs: { release: 'shop@2.0.0', environment: 'production' } };
  const envelope = `${JSON.stringify({ sent_at: new Date().toISOString() })}\n${JSON.stringify({ type: 'session' })}\n${JSON.stringify(sentry)}\n`;
  const path = `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`;
  expect((await api.request('POST', path, { headers, body: envelope, localAddress: randomClient() })).status).toBe(200);

  await tallied();
  const shown = await handleControlRequest(control, { operation: 'releases.show', factoryId, release: 'shop@2.0.0' }, { principal: CONTROL_CALLER });
  expect(shown.status).toBe(200);
  expect(shown.body).toMatchObject({
    release: 'shop@2.0.0',
    environment: 'production',
    sessions: 5,
    errored: 2,
    crashed: 2,
    exited: 0,
    abnormal: 0,
    users: 3,
    crashedUsers: 2,
    usersExact: true,
    adoption: 1,
  });
  expect(shown.body.crashFreeSessions).toBeCloseTo(3 / 5, 10);
  expect(shown.body.crashFreeUsers).toBeCloseTo(1 / 3, 10);
});
