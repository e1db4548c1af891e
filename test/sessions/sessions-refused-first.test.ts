import { randomUUID } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { CONTROL_CALLER } from '../support/control-memory';
import { FaultInjector, stopFaultServers } from '../support/faults';
import { randomClient } from '../support/ingest';
import { endpoint, issuePublishableKey, newFactoryId, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * A request carrying sessions is refused before the write that records them
 * (docs/capacity.md#refusals-before-the-sessions-are-written): a 429 from the
 * key's limit, or from the key's item throttled, stores and counts nothing,
 * so the client's retry counts its `sessions` aggregate once. DynamoDB Local,
 * faults injected on the real client, the container's clock injected.
 */
const clock = { now: Date.now() };
const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint() });
const faults = new FaultInjector(client, DEFAULT_DYNAMO_CONFIG.requestTimeoutMs);
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });
let api: LocalApi;

beforeAll(async () => {
  api = await startLocalHost({ ...ingestDynamoDependencies(documentClientOf(client), tables), now: () => clock.now });
});
afterEach(() => faults.clear());
afterAll(async () => {
  await api.close();
  client.destroy();
  await stopFaultServers();
});

const SITE = 'https://app.example.com';
const envelope = (items: [string, unknown][]): string =>
  `${JSON.stringify({ sent_at: new Date(clock.now).toISOString() })}\n${items.map(([type, payload]) => `${JSON.stringify({ type })}\n${JSON.stringify(payload)}`).join('\n')}\n`;

async function tenant(label: string, rateLimit: number) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE], { servers: true, rateLimit });
  const publicKey = new URL(dsnFor(api.baseUrl, key, keyId)).username;
  const send = (items: [string, unknown][]) =>
    api.request('POST', `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${publicKey}`, {
      headers: { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
      body: envelope(items),
      localAddress: randomClient(),
    });
  const releases = async () => {
    await tallied();
    const list = await handleControlRequest(control, { factoryId, operation: 'releases.list' }, { principal: CONTROL_CALLER });
    expect(list.status).toBe(200);
    return list.body.releases as Record<string, unknown>[];
  };
  return { send, releases };
}

/** An error of its own issue each time (an issue's share of the key's limit is not what these tests are about). */
const error = (): [string, unknown] => {
  const id = randomUUID().replace(/-/g, '');
  return ['event', { event_id: id, exception: { values: [{ type: `Error${id}`, value: 'boom' }] } }];
};
/** A server's minute of sessions, and a browser session's crash: what a retry must not count twice. */
const sessions = (): [string, unknown][] => [
  ['sessions', { aggregates: [{ started: new Date(clock.now).toISOString(), exited: 5, crashed: 1 }], attrs: { release: 'api@1', environment: 'production' } }],
  [
    'session',
    {
      sid: randomUUID(),
      did: 'ada',
      init: true,
      started: new Date(clock.now).toISOString(),
      timestamp: new Date(clock.now).toISOString(),
      status: 'crashed',
      errors: 1,
      attrs: { release: 'web@1', environment: 'production' },
    },
  ],
];

test("a request carrying sessions refused by the key's limit is 429 and stores no session", async () => {
  // 20 a minute: a burst of 3 at once, then one every 3 s.
  const { send, releases } = await tenant('sesskey', 20);
  for (let i = 0; i < 3; i += 1) expect((await send([error()])).status).toBe(200);
  const refused = await send([error(), ...sessions()]);
  expect(refused.status).toBe(429);
  expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
  expect(refused.json.error).toMatch(/Rate limit of 20 requests per minute exceeded for this key/);
  expect(await releases()).toEqual([]);
  // An envelope of sessions alone spends none of the key's limit (nothing after its write can refuse it): taken, and counted once.
  expect((await send(sessions())).status).toBe(200);
  expect((await releases()).map((release) => [release.release, release.sessions])).toEqual(
    expect.arrayContaining([
      ['api@1', 6],
      ['web@1', 1],
    ]),
  );
});

test("a request carrying sessions refused because the key's item is throttled stores nothing; its retry counts the aggregate once", async () => {
  const { send, releases } = await tenant('sessthr', 600_000);
  expect((await send([error()])).status).toBe(200);
  // Past the container's lease of the key: the next request writes the key's item, which is throttled.
  clock.now += 5_000;
  const items = [error(), ...sessions()];
  const throttled = faults.inject({ call: 'authorize', when: 'before', fault: 'throttling' });
  const refused = await send(items);
  expect(throttled.hits).toBeGreaterThan(0);
  expect(refused.status).toBe(429);
  expect(refused.headers['retry-after']).toMatch(/^[12]$/);
  throttled.remove();
  expect(await releases()).toEqual([]);
  expect((await send(items)).status).toBe(200);
  const counted = Object.fromEntries((await releases()).map((release) => [release.release, release]));
  expect(counted['api@1']).toMatchObject({ sessions: 6, exited: 5, crashed: 1 });
  expect(counted['web@1']).toMatchObject({ sessions: 1, crashed: 1 });
});

test("an envelope without sessions keeps the order: an error held back by its issue's share spends none of the key's limit", async () => {
  // 20 a minute: the key admits 3 at once, an issue's share (half) 2.
  const { send } = await tenant('sessorder', 20);
  const same = error();
  const statuses: number[] = [];
  for (let i = 0; i < 4; i += 1) statuses.push((await send([['event', { ...(same[1] as object), event_id: randomUUID().replace(/-/g, '') }]])).status);
  expect(statuses).toEqual([200, 200, 429, 429]);
  // Two of the key's 3 spent, not four: another error still passes.
  expect((await send([error()])).status).toBe(200);
});
