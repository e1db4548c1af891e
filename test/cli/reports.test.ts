import { randomUUID } from 'node:crypto';
import { jsonLines, runScript, runScriptInProcess } from '../support/commands';
import { tallied } from '../support/tally';
import { featureRequest, ingestTenant, storedReports, validEvent } from '../support/ingest';
import { endpoint, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';

/** The reports command against the run's DynamoDB Local, its entry file in this process. */
const reports = async (...args: string[]) => {
  // What the command lists is what the tally has put on the feed pages.
  await tallied();
  return runScriptInProcess('reports', args, { DYNAMODB_ENDPOINT: endpoint() });
};
/** The same, as its own process, the way `npm run` runs it: one test of this file's. */
const reportsProcess = async (...args: string[]) => {
  await tallied();
  return runScript('reports', args, { DYNAMODB_ENDPOINT: endpoint() });
};

/** A minute ago, on a whole second: recent, so nothing has expired (the reader skips reports past their retention). */
const BASE = Math.floor(Date.now() / 1000) * 1000 - 60_000;
const at = (seconds: number) => new Date(BASE + seconds * 1000).toISOString();
const clock = { now: BASE };
let api: LocalApi;
let tenant: Awaited<ReturnType<typeof ingestTenant>>;
const sent: Record<string, string> = {};

beforeAll(async () => {
  api = await startLocalHost({ ...realIngestDependencies(), now: () => clock.now });
  tenant = await ingestTenant(api, undefined, 'reports');
  // Three events a second apart (the middle one a bug report), and two feature requests.
  for (const [name, type] of [
    ['first', 'error'],
    ['second', 'bug_report'],
    ['third', 'message'],
  ] as const) {
    const event = validEvent({ type, message: name });
    sent[name] = event.eventId;
    expect((await tenant.events([event])).status).toBe(202);
    clock.now += 1000;
  }
  for (const title of ['Dark mode', 'CSV export']) {
    expect((await tenant.featureRequest(featureRequest({ title }))).status).toBe(201);
    clock.now += 1000;
  }
});
afterAll(() => api.close());

describe('npm run reports -- events', () => {
  test('prints one JSON object per line, newest first, never the key', async () => {
    const result = await reportsProcess('events', '--factory', tenant.factoryId);
    expect(result.status).toBe(0);
    expect(jsonLines(result.stdout).map((e) => e.message)).toEqual(['third', 'second', 'first']);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ eventId: sent.third, factoryId: tenant.factoryId, origin: tenant.origin, receivedAt: at(2) });
    expect(result.stdout).not.toContain(tenant.key.slice(5));
    expect(result.stdout).not.toMatch(/"(pk|feed|writeToken)"/);
  });

  test('--type, --since and --limit narrow it, in DynamoDB', async () => {
    const byType = await reports('events', '--factory', tenant.factoryId, '--type', 'bug_report');
    expect(jsonLines(byType.stdout).map((e) => e.message)).toEqual(['second']);
    const since = await reports('events', '--factory', tenant.factoryId, '--since', at(1));
    expect(jsonLines(since.stdout).map((e) => e.message)).toEqual(['third', 'second']);
    const limited = await reports('events', '--factory', tenant.factoryId, '--limit', '2');
    expect(jsonLines(limited.stdout).map((e) => e.message)).toEqual(['third', 'second']);
  });

  test('reads only the factory asked for', async () => {
    const result = await reports('events', '--factory', `fac_nobody_${randomUUID().slice(0, 8)}`);
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('');
  });
});

describe('npm run reports -- feature-requests', () => {
  test('prints the feature requests newest first', async () => {
    const result = await reports('feature-requests', '--factory', tenant.factoryId);
    expect(jsonLines(result.stdout).map((r) => r.title)).toEqual(['CSV export', 'Dark mode']);
    expect(jsonLines(result.stdout)[0]).toMatchObject({ id: expect.stringMatching(/^fr_/), requestId: expect.any(String), createdAt: expect.any(String) });
  });
});

describe('paging', () => {
  test('pages of any size give the same reports in the same order', async () => {
    const all = await storedReports(tenant.factoryId);
    const { readReports } = await import('../../lambda/infrastructure/store/reports/report-reader');
    const { tables, testDoc } = await import('../support/local-api');
    const paged: Record<string, unknown>[] = [];
    for await (const report of readReports(testDoc(), tables.reports, tenant.factoryId, 'events', { pageSize: 1 })) paged.push(report);
    expect(paged).toEqual(all);
  });
});

describe('arguments', () => {
  test.each([
    [['events'], /--factory <fac_id> is required/],
    [[], /say what to read/],
    [['sessions', '--factory', 'fac_x'], /unknown kind "sessions"/],
    [['events', '--factory', 'fac_x', '--type', 'fatal'], /--type must be one of error, bug_report, message/],
    [['feature-requests', '--factory', 'fac_x', '--type', 'error'], /--type is for events only/],
    [['events', '--factory', 'fac_x', '--since', 'yesterday'], /--since must be an ISO 8601 date/],
    [['events', '--factory', 'fac_x', '--limit', '0'], /--limit must be a whole number/],
  ])('refuses %j with exit code 2, one error line and the usage', async (args, message) => {
    const result = await reports(...args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).toMatch(/^usage: npm run --silent reports/m);
  });
});
