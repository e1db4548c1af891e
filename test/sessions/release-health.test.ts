import { randomUUID } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { CONTROL_CALLER } from '../support/control-memory';
import { randomClient } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * Release health end to end (docs/release-health.md): Sentry `session` and `sessions` items through the local host
 * on DynamoDB Local, counted by the run's tally, read back by the control room's operations (`reports releases`).
 */
let api: LocalApi;
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });

beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

const SITE = 'https://app.example.com';
const envelope = (items: [string, unknown][]): string =>
  `${JSON.stringify({ sent_at: new Date().toISOString() })}\n${items.map(([type, payload]) => `${JSON.stringify({ type })}\n${JSON.stringify(payload)}`).join('\n')}\n`;

async function tenant(label: string) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE], { servers: true });
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const send = (items: [string, unknown][], from = randomClient()) =>
    api.request('POST', `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`, {
      headers: { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: envelope(items),
      localAddress: from,
    });
  const call = (request: Record<string, unknown>) => handleControlRequest(control, { factoryId, ...request }, { principal: CONTROL_CALLER });
  return { factoryId, send, call };
}

/** A browser session's update as @sentry/browser sends it. */
const update = (sid: string, fields: Record<string, unknown>, release = 'web@1.0.0') => ({
  sid,
  did: fields.did ?? 'user-1',
  init: false,
  started: new Date(Date.now() - 1000).toISOString(),
  timestamp: new Date().toISOString(),
  status: 'ok',
  errors: 0,
  attrs: { release, environment: 'production', user_agent: 'test' },
  ...fields,
});

test('session updates count once per status reached, whatever is resent; crash-free sessions and users are exact', async () => {
  const { send, call } = await tenant('relh');
  const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
  const visitor = randomClient();
  const sends = [
    [['session', update(a, { init: true, did: 'ada' })]],
    [['session', update(a, { status: 'exited', did: 'ada' })]],
    [['session', update(a, { status: 'exited', did: 'ada' })]], // the SDK's retry: nothing new
    [['session', update(b, { init: true, did: 'bob' })]],
    [['session', update(b, { status: 'crashed', errors: 1, did: 'bob' })]],
    [['session', update(b, { status: 'crashed', errors: 1, did: 'bob' })]],
    [
      ['session', update(c, { init: true, status: 'ok', errors: 1, did: 'cy' })],
      ['session', update(c, { status: 'exited', errors: 1, did: 'cy' })],
    ],
  ] as [string, unknown][][];
  for (const items of sends) expect((await send(items, visitor)).status).toBe(200);
  await tallied();
  const list = await call({ operation: 'releases.list' });
  expect(list.status).toBe(200);
  expect(list.body.releases).toEqual([
    expect.objectContaining({
      release: 'web@1.0.0',
      environment: 'production',
      sessions: 3,
      exited: 2,
      errored: 2,
      crashed: 1,
      abnormal: 0,
      users: 3,
      crashedUsers: 1,
      usersExact: true,
      adoption: 1,
    }),
  ]);
  const [release] = list.body.releases as Record<string, number>[];
  expect(release?.crashFreeSessions).toBeCloseTo(2 / 3, 10);
  expect(release?.crashFreeUsers).toBeCloseTo(2 / 3, 10);
});

test("a server's aggregates count by how each session ended; adoption is the release's share of the factory's sessions over a day", async () => {
  const { send, call } = await tenant('relagg');
  const started = new Date(Date.now() - 60_000).toISOString().replace(/:\d\d\.\d+Z$/, ':00Z');
  const aggregates = (release: string, rows: Record<string, number>[]) =>
    ['sessions', { aggregates: rows.map((row) => ({ started, ...row })), attrs: { release, environment: 'production' } }] as [string, unknown];
  expect((await send([aggregates('api@2', [{ exited: 6, errored: 1, crashed: 1 }])])).status).toBe(200);
  expect((await send([aggregates('api@1', [{ exited: 2 }])])).status).toBe(200);
  await tallied();
  const list = await call({ operation: 'releases.list' });
  const byName = Object.fromEntries((list.body.releases as Record<string, unknown>[]).map((r) => [r.release, r]));
  expect(byName['api@2']).toMatchObject({ sessions: 8, exited: 6, errored: 2, crashed: 1, crashFreeSessions: 7 / 8, adoption: 0.8 });
  expect(byName['api@1']).toMatchObject({ sessions: 2, crashed: 0, crashFreeSessions: 1, crashFreeUsers: null, adoption: 0.2 });
  const one = await call({ operation: 'releases.show', release: 'api@2' });
  expect(one.status).toBe(200);
  expect(one.body).toMatchObject({ release: 'api@2', sessions: 8, newIssues: [], regressedIssues: [] });
  expect(one.body.hours).toEqual([expect.objectContaining({ started: 8, crashed: 1, crashFreeSessions: 7 / 8 })]);
  expect((await call({ operation: 'releases.show', release: 'api@9' })).status).toBe(404);
});

test('releases are listed newest first, a page at a time with a cursor', async () => {
  const { send, call } = await tenant('relpage');
  for (const release of ['r1', 'r2', 'r3']) {
    expect((await send([['session', update(randomUUID(), { init: true }, release)]])).status).toBe(200);
    await tallied();
  }
  const first = await call({ operation: 'releases.list', limit: 2 });
  expect((first.body.releases as { release: string }[]).map((r) => r.release)).toEqual(['r3', 'r2']);
  const second = await call({ operation: 'releases.list', limit: 2, cursor: first.body.cursor });
  expect((second.body.releases as { release: string }[]).map((r) => r.release)).toEqual(['r1']);
  expect(second.body.cursor).toBeUndefined();
});

test("what an SDK says it discarded (client_report) is kept per key and day and shown beside the key's rate limit; transactions and spans are answered 200, not stored", async () => {
  const { factoryId, send, call } = await tenant('relcr');
  const report = (quantity: number) =>
    [
      'client_report',
      {
        timestamp: Date.now() / 1000,
        discarded_events: [
          { reason: 'ratelimit_backoff', category: 'error', quantity },
          { reason: 'sample_rate', category: 'span', quantity: 1 },
        ],
      },
    ] as [string, unknown];
  expect((await send([report(3)])).status).toBe(200);
  expect((await send([report(2), ['transaction', { type: 'transaction', spans: [] }], ['span', { span_id: 'a' }]])).status).toBe(200);
  await tallied();
  const keys = await call({ operation: 'keys.list' });
  const [key] = keys.body.keys as Record<string, unknown>[];
  expect(key).toMatchObject({
    rateLimit: expect.any(Number),
    discarded: {
      days: 7,
      counts: [
        { reason: 'ratelimit_backoff', category: 'error', quantity: 5 },
        { reason: 'sample_rate', category: 'span', quantity: 2 },
      ],
    },
  });
  expect(factoryId).toMatch(/^fac_relcr/);
});
