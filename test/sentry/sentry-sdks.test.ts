import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { storedReports } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';
import { issuesOf } from './sentry-issues';

/**
 * The Sentry protocol (docs/sentry-sdks.md) through the local host on
 * DynamoDB Local: the unmodified official @sentry/node, run as a customer's
 * backend with the DSN keys create prints, and hand-made envelopes for what
 * an SDK never sends (hostile bodies, conflicting keys).
 */
const run = promisify(execFile);
let api: LocalApi;

// The limiters' clock stands still for the file: a limit refused once stays refused, whatever the machine's speed.
const frozen = Date.now();

beforeAll(async () => {
  // Every request comes from 127.0.0.1: the per-address limit is raised so that only the behaviour under test decides.
  api = await startLocalHost({
    ...realIngestDependencies({
      addressLimits: { requests: { limit: 100_000, periodMs: 60_000, burst: 10_000 }, featureRequests: { limit: 10, periodMs: 3_600_000, burst: 1 } },
    }),
    now: () => frozen,
  });
});
afterAll(async () => {
  await api.close();
});

async function sentryTenant(label: string, servers: boolean) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers });
  const dsn = dsnFor(api.baseUrl, key, keyId);
  const path = (kind: 'envelope' | 'store') => `/ingest/sentry/api/${sentryProjectId(keyId)}/${kind}/`;
  return { factoryId, key, keyId, dsn, path, publicKey: new URL(dsn).username };
}

const eventId = () => randomUUID().replace(/-/g, '');
const envelope = (parts: unknown[]): string => `${parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join('\n')}\n`;
const sentryEvent = (extra: Record<string, unknown> = {}) => ({
  event_id: eventId(),
  platform: 'python',
  exception: {
    values: [
      {
        type: 'ValueError',
        value: 'bad input 7',
        stacktrace: { frames: [{ function: 'handle', module: 'app.views', filename: 'app/views.py', lineno: 10, in_app: true }] },
      },
    ],
  },
  ...extra,
});

test('the unmodified @sentry/node reports through the printed DSN: each exception is one issue with an exact count and its original frames', async () => {
  const tenant = await sentryTenant('sentrynode', true);
  await run(process.execPath, [join(__dirname, 'node-app.cjs')], { env: { ...process.env, SENTRY_DSN: tenant.dsn }, timeout: 60_000 });
  const issues = await issuesOf(tenant.factoryId);
  expect(issues.map((issue) => [issue.title.replace(/\d+/g, 'N'), issue.count]).sort()).toEqual([
    ['Error: card declined for N EUR', 3],
    ['RangeError: no user N', 2],
  ]);
  const events = await storedReports(tenant.factoryId);
  expect(events).toHaveLength(5);
  const card = events.find((event) => event.exception?.type === 'Error')!;
  expect(card.sdkFrames.find((frame: Record<string, unknown>) => frame.function === 'chargeCard')).toMatchObject({
    inApp: true,
    contextLine: expect.stringContaining('card declined'),
    line: expect.any(Number),
  });
  expect(card.exception.stack).toContain('Caused by: TypeError: gateway answered 402 for');
  expect(card.reporter).toEqual({ email: 'ada@example.com', name: 'ada' });
  expect(card.tags).toMatchObject({ environment: 'test', plan: 'pro' });
  expect(card.release).toBe('billing@1.4.2');
  expect(card.origin).toBe('server');
}, 90_000);

test('a browser-only key (no --servers) refuses a report without an Origin: 403', async () => {
  const tenant = await sentryTenant('sentrybrowser', false);
  const res = await api.request('POST', `${tenant.path('envelope')}?sentry_key=${tenant.publicKey}`, {
    body: envelope([{ event_id: eventId() }, { type: 'event' }, sentryEvent()]),
  });
  expect(res.status).toBe(403);
  const fromSite = await api.request('POST', `${tenant.path('envelope')}?sentry_key=${tenant.publicKey}`, {
    headers: { Origin: 'https://app.example.com', 'Content-Type': 'text/plain;charset=UTF-8' },
    body: envelope([{ event_id: eventId() }, { type: 'event' }, sentryEvent()]),
  });
  expect(fromSite.status).toBe(200);
  expect(fromSite.headers['access-control-allow-origin']).toBe('https://app.example.com');
});

test('the store endpoint takes a gzip event with X-Sentry-Auth (Python 1.x); the same event_id again is stored once', async () => {
  const tenant = await sentryTenant('sentrystore', true);
  const event = sentryEvent();
  const send = () =>
    api.request('POST', tenant.path('store'), {
      headers: {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'X-Sentry-Auth': `Sentry sentry_key=${tenant.publicKey}, sentry_version=7, sentry_client=sentry.python/1.9.10`,
      },
      body: gzipSync(JSON.stringify(event)),
    });
  expect((await send()).json).toEqual({ id: event.event_id });
  expect((await send()).status).toBe(200);
  const issues = await issuesOf(tenant.factoryId);
  expect(issues.map((issue) => [issue.title, issue.count])).toEqual([['ValueError: bad input 7', 1]]);
});

test('an envelope framed by item lengths, br-compressed, with a session and a client report, stores its event and drops the rest', async () => {
  const tenant = await sentryTenant('sentryframing', true);
  const event = JSON.stringify(sentryEvent({ message: 'line one\nline two' }));
  const session = JSON.stringify({ sid: randomUUID(), status: 'ok' });
  const body = `${JSON.stringify({ event_id: eventId(), dsn: tenant.dsn })}\n${JSON.stringify({ type: 'session', length: Buffer.byteLength(session) })}\n${session}\n${JSON.stringify({ type: 'event', length: Buffer.byteLength(event) })}\n${event}\n${JSON.stringify({ type: 'client_report' })}\n{}\n`;
  const res = await api.request('POST', tenant.path('envelope'), { headers: { 'Content-Encoding': 'br' }, body: brotliCompressSync(body) });
  expect(res.status).toBe(200);
  expect(await storedReports(tenant.factoryId)).toHaveLength(1);
});

test('hostile envelopes are refused whole with a clear error, nothing stored: lying length, truncated gzip, zip bomb, 10,000 items, bad JSON in one item', async () => {
  const tenant = await sentryTenant('sentryhostile', true);
  const post = (body: string | Buffer, headers: Record<string, string> = {}) =>
    api.request('POST', `${tenant.path('envelope')}?sentry_key=${tenant.publicKey}`, { headers, body });
  const good = JSON.stringify(sentryEvent());
  const lying = await post(`{}\n{"type":"event","length":999999}\n${good}\n`);
  expect([lying.status, lying.json.error]).toEqual([400, expect.stringContaining('only')]);
  const truncated = await post(gzipSync(envelope([{}, { type: 'event' }, good])).subarray(0, 40), { 'Content-Encoding': 'gzip' });
  expect([truncated.status, truncated.json.error]).toEqual([400, expect.stringContaining('gzip')]);
  const bomb = await post(gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20)), { 'Content-Encoding': 'gzip' });
  expect([bomb.status, bomb.json.error]).toEqual([413, expect.stringContaining('decompresses to more than')]);
  const many = await post(`{}\n${'{"type":"session"}\n{}\n'.repeat(10_000)}`);
  expect([many.status, many.json.error]).toEqual([413, expect.stringContaining('more than 100 items')]);
  const badJson = await post(envelope([{}, { type: 'event' }, good, { type: 'event' }, '{"event_id": "broken']));
  expect([badJson.status, badJson.json.error]).toEqual([400, 'Item 2 (event) is not valid JSON.']);
  expect(await storedReports(tenant.factoryId)).toEqual([]);
});

test("keys in X-Sentry-Auth and ?sentry_key= that disagree are refused (401); a DSN with another key's project id too", async () => {
  const tenant = await sentryTenant('sentryauth', true);
  const other = await sentryTenant('sentryauth2', true);
  const body = envelope([{}, { type: 'event' }, sentryEvent()]);
  const conflicting = await api.request('POST', `${tenant.path('envelope')}?sentry_key=${other.publicKey}`, {
    headers: { 'X-Sentry-Auth': `Sentry sentry_key=${tenant.publicKey}` },
    body,
  });
  expect([conflicting.status, conflicting.json.error]).toEqual([401, expect.stringContaining('differ')]);
  const wrongProject = await api.request('POST', `${other.path('envelope')}?sentry_key=${tenant.publicKey}`, { body });
  expect([wrongProject.status, wrongProject.json.error]).toEqual([401, expect.stringContaining('project id')]);
});

test("an error over its share of the key's limit gets 429 with Retry-After and X-Sentry-Rate-Limits; nothing acknowledged is lost", async () => {
  const factoryId = newFactoryId('sentrystorm');
  // 20 a minute: each error may take 10 (burst 1), the rest of the key's budget stays for other errors.
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true, rateLimit: 20 });
  const path = `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${new URL(dsnFor(api.baseUrl, key, keyId)).username}`;
  const answers = [];
  for (let i = 0; i < 4; i += 1) answers.push(await api.request('POST', path, { body: envelope([{}, { type: 'event' }, sentryEvent()]) }));
  const refused = answers.find((answer) => answer.status === 429);
  expect(refused?.headers['x-sentry-rate-limits']).toBe(`${refused?.headers['retry-after']}::key`);
  const acknowledged = answers.filter((answer) => answer.status === 200).length;
  expect((await issuesOf(factoryId)).map((issue) => issue.count)).toEqual([acknowledged]);
});
