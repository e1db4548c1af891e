import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { issueKey as issueItemKey } from '../../lambda/infrastructure/store/reports/issue-items';
import { ingestTenant, storedReports, validEvent } from '../support/ingest';
import { endpoint, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * Issues (docs/report-issues.md), through the HTTP API on DynamoDB Local:
 * each event its own conditional write at ingest, counted into its issue by
 * the tally from the table's stream (the run's, test/support/run-tally.ts),
 * exact counts, duplicates never counted, filtered events counted apart, a
 * resolved issue reopening, and the expiry that moves with every event. The
 * ingest API's DynamoDB calls are seen by an SDK middleware on its client.
 */
const DAY_MS = 86_400_000;
const clock = { now: Date.now() };
let api: LocalApi;
let close: () => void;
const sent: { operation: string; items: number }[] = [];

beforeAll(async () => {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 5000, endpoint: endpoint() });
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as { TransactItems?: unknown[] };
      sent.push({ operation: String(context.commandName).replace(/Command$/, ''), items: input.TransactItems?.length ?? 1 });
      return next(args);
    },
    { step: 'initialize', name: 'testCallLog' },
  );
  const deps = ingestDynamoDependencies(documentClientOf(client), tables, { retentionDays: 30 });
  api = await startLocalHost({ ...deps, now: () => clock.now });
  close = () => client.destroy();
});
afterAll(async () => {
  await api.close();
  close();
});
beforeEach(() => {
  sent.length = 0;
});

const control = controlDependencies(testDoc(), tables, 'Platform');
const operator = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/ada' };
/** A control-room operation, once the tally has counted everything sent before it. */
const call = async (request: Record<string, unknown>) => {
  await tallied();
  return handleControlRequest({ ...control, now: () => new Date(clock.now) }, request, operator);
};
const issuesOf = async (factoryId: string, status?: string) =>
  (await call({ operation: 'issues.list', factoryId, ...(status ? { status } : {}) })).body.issues as Record<string, any>[];
/** The event writes the request made: what a request costs besides the key and limiter calls. */
const eventWrites = () => sent.filter((entry) => entry.operation === 'TransactWriteItems' || entry.operation === 'PutItem');
/** Whether the request wrote anything that every request of the factory or issue writes: no. */
const sharedWrites = () => sent.filter((entry) => entry.operation === 'TransactWriteItems');

const stackOf = (fn: string, hash: string) =>
  `TypeError: x is undefined\n    at ${fn} (https://app.example.com/assets/app.${hash}.js:10:20)\n    at main (https://app.example.com/assets/app.${hash}.js:30:1)`;
const crash = (fn: string, hash = '3f9a1c', extra: Record<string, unknown> = {}) =>
  validEvent({ message: 'TypeError: x is undefined', exception: { type: 'TypeError', value: 'x is undefined', stack: stackOf(fn, hash) }, ...extra });

test('a batch of 20 events over 3 fingerprints is 20 conditional PutItems, no transaction and no issue write; the tally counts its 3 issues', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const events = [
    ...Array.from({ length: 12 }, (_, i) => crash('render', i % 2 ? '3f9a1c' : '77bb0e', { release: i % 2 ? 'web@1' : 'web@2' })),
    ...Array.from({ length: 5 }, () => crash('checkout')),
    ...Array.from({ length: 3 }, (_, i) => validEvent({ message: `Order ${i * 7} not found` })),
  ];
  const res = await tenant.events(events);
  expect(res.json).toEqual({ accepted: 20, duplicates: 0, rejected: [] });
  expect(eventWrites()).toEqual(Array(20).fill({ operation: 'PutItem', items: 1 }));
  expect(sharedWrites()).toEqual([]);
  const issues = await issuesOf(tenant.factoryId);
  // One issue's title is its first event's: of events received together, the one with the smallest eventId.
  const [firstOrder] = events.slice(17).sort((a, b) => (a.eventId < b.eventId ? -1 : 1));
  expect(issues.map((issue) => [issue.title, issue.count, issue.status]).sort()).toEqual(
    [
      [firstOrder!.message, 3, 'open'],
      ['TypeError: x is undefined', 12, 'open'],
      ['TypeError: x is undefined', 5, 'open'],
    ].sort(),
  );
  const render = issues.find((issue) => issue.count === 12)!;
  // The events of one request are written at once: any of them may be counted last.
  expect(render).toMatchObject({
    issueId: expect.stringMatching(/^iss_[0-9a-f]{20}$/),
    firstRelease: expect.stringMatching(/^web@[12]$/),
    lastRelease: expect.stringMatching(/^web@[12]$/),
  });
  expect(events.slice(0, 12).map((event) => event.eventId)).toContain(render.lastEventId);
  expect(render.firstSeen).toBe(render.lastSeen);
  // Each event names its issue.
  const stored = await storedReports(tenant.factoryId);
  expect(stored.filter((event) => event.issueId === render.issueId)).toHaveLength(12);
});

test('the same request again changes no count: its events all found stored, and the answer names them duplicates', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const events = Array.from({ length: 6 }, () => crash('render'));
  await tenant.events(events);
  sent.length = 0;
  expect((await tenant.events(events)).json).toEqual({ accepted: 0, duplicates: 6, rejected: [] });
  expect(eventWrites()).toEqual(Array(6).fill({ operation: 'PutItem', items: 1 }));
  expect((await issuesOf(tenant.factoryId)).map((issue) => issue.count)).toEqual([6]);
});

test('a request mixing stored and new events counts only the new ones; an eventId twice in one request is written and counted once', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const old = [crash('render'), crash('render')];
  await tenant.events(old);
  sent.length = 0;
  const fresh = crash('render');
  const res = await tenant.events([...old, fresh, { ...fresh }, crash('checkout')]);
  expect(res.json).toEqual({ accepted: 2, duplicates: 3, rejected: [] });
  expect(eventWrites()).toEqual(Array(4).fill({ operation: 'PutItem', items: 1 }));
  expect((await issuesOf(tenant.factoryId)).map((issue) => issue.count).sort()).toEqual([1, 3]);
});

test('browser-extension and cross-origin "Script error." events are accepted and stored as filtered, counted apart, and open no issue', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const extension = validEvent({
    exception: { type: 'Error', value: 'boom', stack: 'Error: boom\n    at inject (chrome-extension://abcdefgh/content.js:1:2)' },
  });
  const safari = validEvent({ exception: { type: 'Error', stack: 'inject@safari-web-extension://x/c.js:1:2' } });
  const res = await tenant.events([extension, safari, validEvent({ message: 'Script error.' }), crash('render')]);
  expect(res.json).toEqual({ accepted: 4, duplicates: 0, rejected: [] });
  const listed = await call({ operation: 'issues.list', factoryId: tenant.factoryId });
  expect(listed.body).toEqual({
    issues: [expect.objectContaining({ count: 1 })],
    filtered: { 'browser-extension': 2, 'script-error': 1 },
    setAside: { counts: {} },
  });
  const stored = await storedReports(tenant.factoryId);
  expect(stored.find((event) => event.eventId === extension.eventId)).toMatchObject({ filtered: 'browser-extension' });
  expect(stored.find((event) => event.eventId === extension.eventId)?.issueId).toBeUndefined();
});

test("the event's own fingerprint groups events whose stacks differ; a malformed one is refused for that event only", async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const res = await tenant.events([
    crash('render', '3f9a1c', { fingerprint: ['checkout', 'card declined'] }),
    crash('checkout', '3f9a1c', { fingerprint: ['checkout', 'card declined'] }),
    crash('render', '3f9a1c', { fingerprint: [] }),
    crash('render', '3f9a1c', { fingerprint: ['a', 7] }),
  ]);
  expect(res.json).toEqual({
    accepted: 2,
    duplicates: 0,
    rejected: [
      { index: 2, error: 'fingerprint has 0 entries: send 1 to 10 strings' },
      { index: 3, error: 'fingerprint[1] must be a string' },
    ],
  });
  const issues = await issuesOf(tenant.factoryId);
  expect(issues).toEqual([expect.objectContaining({ issueId: issueIdOf(tenant.factoryId, ['custom', 'checkout', 'card declined']), count: 2 })]);
});

test('a resolved issue that receives a new event reopens and records the regression; an ignored one keeps counting, still ignored', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  await tenant.events([crash('render'), crash('checkout')]);
  const listed = await issuesOf(tenant.factoryId);
  const a = listed.find((issue) => issue.fingerprint.includes('render@/assets/app.js'))!;
  const b = listed.find((issue) => issue.fingerprint.includes('checkout@/assets/app.js'))!;
  clock.now += 1000;
  const resolved = await call({ operation: 'issues.resolve', factoryId: tenant.factoryId, issueId: a.issueId });
  expect(resolved).toMatchObject({ status: 200, body: { previousStatus: 'open', issue: { status: 'resolved', statusChangedBy: operator.principal } } });
  expect(resolved.audit).toMatchObject({
    operation: 'issues.resolve',
    factoryId: tenant.factoryId,
    issueId: a.issueId,
    principal: operator.principal,
    from: 'open',
    to: 'resolved',
  });
  expect((await call({ operation: 'issues.ignore', factoryId: tenant.factoryId, issueId: b.issueId })).status).toBe(200);
  expect((await issuesOf(tenant.factoryId, 'resolved')).map((issue) => issue.issueId)).toEqual([a.issueId]);

  clock.now += 1000;
  const again = crash('render', 'aa00ff11');
  expect((await tenant.events([again, crash('checkout')])).json).toMatchObject({ accepted: 2 });
  const reopened = (await call({ operation: 'issues.show', factoryId: tenant.factoryId, issueId: a.issueId })).body as Record<string, any>;
  expect(reopened.issue).toMatchObject({ status: 'open', count: 2, regressions: 1, regressedAt: new Date(clock.now).toISOString() });
  expect(reopened.events.map((event: Record<string, unknown>) => event.eventId)).toEqual([again.eventId, a.lastEventId]);
  expect(await issuesOf(tenant.factoryId, 'ignored')).toEqual([expect.objectContaining({ issueId: b.issueId, count: 2, status: 'ignored' })]);
  expect(await issuesOf(tenant.factoryId, 'resolved')).toEqual([]);
});

test('an issue lives until no event has come for the retention period: each event moves its expiry; past it, the next event starts it anew', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const issueId = issueIdOf(tenant.factoryId, ['custom', 'expiry']);
  const expiryOf = async () =>
    (await tallied(), await testDoc().send(new GetCommand({ TableName: tables.reports, Key: { pk: issueItemKey(tenant.factoryId, issueId) } }))).Item
      ?.expiresAt;
  const start = clock.now;
  await tenant.events([validEvent({ fingerprint: ['expiry'] })]);
  expect(await expiryOf()).toBe(Math.floor(start / 1000) + 30 * 86_400);
  clock.now += 20 * DAY_MS;
  await tenant.events([validEvent({ fingerprint: ['expiry'] })]);
  expect(await expiryOf()).toBe(Math.floor(clock.now / 1000) + 30 * 86_400);
  expect((await call({ operation: 'issues.resolve', factoryId: tenant.factoryId, issueId })).status).toBe(200);

  clock.now += 31 * DAY_MS;
  expect((await call({ operation: 'issues.show', factoryId: tenant.factoryId, issueId })).status).toBe(404);
  await tenant.events([validEvent({ fingerprint: ['expiry'] })]);
  const renewed = (await call({ operation: 'issues.show', factoryId: tenant.factoryId, issueId })).body.issue as Record<string, unknown>;
  expect(renewed).toMatchObject({ count: 1, status: 'open', firstSeen: new Date(clock.now).toISOString() });
  expect(renewed.regressions).toBeUndefined();
  clock.now = Date.now();
});

test('an unknown issue is a 404 naming it, a malformed id a 400, and both are audited like every operation', async () => {
  const tenant = await ingestTenant(api, undefined, 'issues');
  const missing = await call({ operation: 'issues.reopen', factoryId: tenant.factoryId, issueId: `iss_${'0'.repeat(20)}` });
  expect(missing).toMatchObject({
    status: 404,
    body: { error: expect.stringMatching(/^no issue iss_0{20} in fac_/) },
    audit: { operation: 'issues.reopen', principal: operator.principal },
  });
  const malformed = await call({ operation: 'issues.show', factoryId: tenant.factoryId, issueId: 'iss_x' });
  expect(malformed).toMatchObject({ status: 400, body: { error: expect.stringMatching(/issueId must be an issue id/) } });
  const status = await call({ operation: 'issues.list', factoryId: tenant.factoryId, status: 'closed' });
  expect(status).toMatchObject({ status: 400, body: { error: 'status must be one of open, resolved, ignored' } });
});
