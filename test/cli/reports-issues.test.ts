import { jsonLines, runScript, runScriptInProcess } from '../support/commands';
import { tallied } from '../support/tally';
import { ingestTenant, validEvent } from '../support/ingest';
import { endpoint, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';

/**
 * `npm run reports -- issues | issue | resolve | ignore | reopen` against the
 * run's DynamoDB Local: the control room's issue operations run in the
 * command, on the same store as the API. The command's entry file runs in
 * this process, but for one test that runs it as its own process.
 */
const reports = async (...args: string[]) => {
  // The issues are what the tally has counted from the stream.
  await tallied();
  return runScriptInProcess('reports', args, { DYNAMODB_ENDPOINT: endpoint() });
};
/** The same, as its own process, the way `npm run` runs it: one test of this file's. */
const reportsProcess = async (...args: string[]) => {
  await tallied();
  return runScript('reports', args, { DYNAMODB_ENDPOINT: endpoint() });
};

const clock = { now: Date.now() - 60_000 };
let api: LocalApi;
let tenant: Awaited<ReturnType<typeof ingestTenant>>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  api = await startLocalHost({ ...realIngestDependencies(), now: () => clock.now });
  tenant = await ingestTenant(api, undefined, 'cli-issues');
  // Three issues, last seen a second apart: "cart" 3 times, "search" once, then "login" twice; and one filtered event.
  for (const [name, count] of [
    ['cart', 3],
    ['search', 1],
    ['login', 2],
  ] as const) {
    const events = Array.from({ length: count }, () => validEvent({ message: `${name} failed`, fingerprint: [name] }));
    expect((await tenant.events(events)).status).toBe(202);
    clock.now += 1000;
  }
  expect((await tenant.events([validEvent({ message: 'Script error.' })])).status).toBe(202);
  const listed = jsonLines((await reports('issues', '--factory', tenant.factoryId)).stdout);
  for (const issue of listed) ids[issue.title.split(' ')[0]] = issue.issueId;
});
afterAll(() => api.close());

test('issues: one JSON object per line, most recently seen first, with id, title, count, first and last seen, status; filtered events summed on stderr', async () => {
  const result = await reportsProcess('issues', '--factory', tenant.factoryId);
  expect(result.status).toBe(0);
  const listed = jsonLines(result.stdout);
  expect(listed.map((issue) => [issue.title, issue.count, issue.status])).toEqual([
    ['login failed', 2, 'open'],
    ['search failed', 1, 'open'],
    ['cart failed', 3, 'open'],
  ]);
  expect(listed[0]).toMatchObject({ issueId: expect.stringMatching(/^iss_[0-9a-f]{20}$/), firstSeen: expect.any(String), lastSeen: expect.any(String) });
  expect(Object.keys(listed[0] ?? {}).slice(0, 9)).toEqual([
    'issueId',
    'title',
    'status',
    'count',
    'visitors',
    'visitorsExact',
    'affected',
    'firstSeen',
    'lastSeen',
  ]);
  // Every event came from the one address and user agent of the test: one visitor each.
  expect(listed.map((issue) => [issue.visitors, issue.visitorsExact])).toEqual([
    [1, true],
    [1, true],
    [1, true],
  ]);
  expect(result.stderr).toMatch(/filtered, counted apart \(no issue\): script-error 1/);
});

test("issues --sort events, --search and --limit with --cursor: the order asked for, titles matching, and the next page's cursor on stderr", async () => {
  const byEvents = await reports('issues', '--factory', tenant.factoryId, '--sort', 'events');
  expect(jsonLines(byEvents.stdout).map((issue) => issue.title)).toEqual(['cart failed', 'login failed', 'search failed']);
  expect(jsonLines((await reports('issues', '--factory', tenant.factoryId, '--search', 'LOGIN')).stdout).map((issue) => issue.title)).toEqual(['login failed']);
  const first = await reports('issues', '--factory', tenant.factoryId, '--limit', '2');
  expect(jsonLines(first.stdout).map((issue) => issue.title)).toEqual(['login failed', 'search failed']);
  const cursor = /more: the next page with --cursor (\S+)/.exec(first.stderr)?.[1];
  expect(cursor).toEqual(expect.any(String));
  const second = await reports('issues', '--factory', tenant.factoryId, '--limit', '2', '--cursor', cursor as string);
  expect(jsonLines(second.stdout).map((issue) => issue.title)).toEqual(['cart failed']);
  expect(second.stderr).not.toMatch(/more:/);
});

test('resolve and ignore print the issue with its new and previous status', async () => {
  const resolved = await reports('resolve', '--factory', tenant.factoryId, '--issue', ids.cart as string);
  expect(resolved.status).toBe(0);
  expect(jsonLines(resolved.stdout)).toEqual([
    expect.objectContaining({ issueId: ids.cart, status: 'resolved', previousStatus: 'open', statusChangedBy: expect.stringMatching(/^local:/) }),
  ]);
  expect(jsonLines((await reports('ignore', '--factory', tenant.factoryId, '--issue', ids.search as string)).stdout)[0]).toMatchObject({
    status: 'ignored',
    previousStatus: 'open',
  });
});

test('--status lists one status; reopen puts a resolved issue back among the open ones', async () => {
  expect(jsonLines((await reports('issues', '--factory', tenant.factoryId, '--status', 'resolved')).stdout).map((issue) => issue.issueId)).toEqual([ids.cart]);
  expect(jsonLines((await reports('issues', '--factory', tenant.factoryId, '--status', 'open')).stdout).map((issue) => issue.issueId)).toEqual([ids.login]);
  expect(jsonLines((await reports('reopen', '--factory', tenant.factoryId, '--issue', ids.cart as string)).stdout)[0]).toMatchObject({
    status: 'open',
    previousStatus: 'resolved',
  });
});

test('issue prints the issue and its latest events, newest first, --limit of them', async () => {
  const result = await reports('issue', '--factory', tenant.factoryId, '--issue', ids.cart as string, '--limit', '2');
  expect(result.status).toBe(0);
  const shown = JSON.parse(result.stdout);
  expect(shown.issue).toMatchObject({ issueId: ids.cart, count: 3 });
  expect(shown.events).toHaveLength(2);
  expect(shown.events[0]).toMatchObject({ issueId: ids.cart, message: 'cart failed' });
  expect(JSON.stringify(shown.events)).not.toMatch(/"(pk|feed|writeToken|expiresAt)"/);
});

test('an unknown issue fails with exit code 1 and one line naming it', async () => {
  const result = await reports('resolve', '--factory', tenant.factoryId, '--issue', `iss_${'a'.repeat(20)}`);
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(new RegExp(`no issue iss_a{20} in ${tenant.factoryId}`));
});

test.each([
  [['issues'], /--factory <fac_id> is required/],
  [['issues', '--factory', 'fac_x', '--status', 'closed'], /--status must be one of open, resolved, ignored, got "closed"/],
  [['issues', '--factory', 'fac_x', '--issue', `iss_${'a'.repeat(20)}`], /issues does not take --issue/],
  [['issue', '--factory', 'fac_x'], /--issue <iss_id> is required/],
  [['resolve', '--factory', 'fac_x', '--issue', 'iss_123'], /--issue must be an issue id: iss_ \+ 20 hex/],
  [['ignore', '--factory', 'fac_x', '--issue', `iss_${'a'.repeat(20)}`, '--limit', '3'], /ignore does not take --limit/],
  [['issue', '--factory', 'fac_x', '--issue', `iss_${'a'.repeat(20)}`, '--limit', '500'], /--limit must be a whole number from 1 to 100/],
  [['events', '--factory', 'fac_x', '--status', 'open'], /events does not take --status/],
  [['issues', '--factory', 'fac_x', '--sort', 'title'], /--sort must be one of lastSeen, events, visitors, people, got "title"/],
  [['issue', '--factory', 'fac_x', '--issue', `iss_${'a'.repeat(20)}`, '--sort', 'events'], /issue does not take --sort/],
  [['events', '--factory', 'fac_x', '--search', 'x'], /events does not take --search/],
])('refuses %j with exit code 2, one error line and the usage', async (args, message) => {
  const result = await reports(...args);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toMatch(message);
  expect(result.stderr).toMatch(/^usage: npm run --silent reports/m);
});
