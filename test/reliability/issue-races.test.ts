import { randomInt, randomUUID } from 'node:crypto';
import { groupEvent, issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import type { HttpResponse } from '../support/http';
import { ingestTenant, storedReports } from '../support/ingest';
import {
  issuePublishableKey,
  newFactoryId,
  UNHURRIED_ADAPTER,
  realDependencies,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  UNHURRIED,
  type LocalApi,
} from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * Issue counts under retries and races, through the HTTP API on DynamoDB
 * Local: the same 1,000 events are sent twice at the same time, by two
 * containers (two handlers, each with its own DynamoDB client, on one
 * table), each pass cutting them into its own random batches of 1 to 20
 * with several requests in flight. Whatever the interleaving, every issue
 * ends with exactly as many events as it has distinct eventIds, and each
 * event is stored once. Always at full size: 1,000 events, about 200 requests.
 */
const EVENTS = 1000;
const IN_FLIGHT = 6;
const SITE = 'https://race.example.com';

const GROUPS = ['renderCart', 'loadTotals', 'checkout', 'search', 'login'];
/** One event of a group: its stack from one of many deploys (other hash, other lines), so grouping is tested too. */
function eventOf(index: number): Record<string, unknown> {
  const eventId = randomUUID();
  if (index % 20 === 19) return { eventId, message: 'Script error.' };
  if (index % 20 === 9)
    return { eventId, exception: { type: 'Error', value: 'ext', stack: `Error: ext\n    at x (chrome-extension://abc${index % 3}/c.js:1:1)` } };
  const fn = GROUPS[index % GROUPS.length] as string;
  const hash = randomInt(0x10000000, 0xffffffff).toString(16);
  const line = randomInt(1, 5000);
  return {
    eventId,
    message: `TypeError: ${fn} failed for order ${randomInt(1, 1e6)}`,
    exception: {
      type: 'TypeError',
      value: `${fn} failed`,
      stack: `TypeError: ${fn} failed\n    at ${fn} (${SITE}/assets/app.${hash}.js:${line}:7)\n    at main (${SITE}/assets/app.${hash}.js:${line + 40}:1)`,
    },
    release: `web@${index % 4}`,
  };
}

/** The events cut into random batches of 1 to 20, in a random order. */
function randomBatches<T>(items: T[]): T[][] {
  const shuffled = [...items];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = randomInt(0, i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j] as T, shuffled[i] as T];
  }
  const batches: T[][] = [];
  for (let at = 0; at < shuffled.length; ) {
    const size = randomInt(1, 21);
    batches.push(shuffled.slice(at, at + size));
    at += size;
  }
  return batches;
}

// No timeout on the path (DynamoDB attempts, the Lambda's): a loaded machine makes a request slower, never a 503
// whose write may have landed. This test is about races, not speed.
let containers: LocalApi[];
beforeAll(async () => {
  const wide = { limit: 1e6, periodMs: 60_000, burst: 1e5 };
  const start = () =>
    startLocalHost(
      realIngestDependencies({ addressLimits: { requests: wide, featureRequests: wide } }, UNHURRIED),
      realDependencies(UNHURRIED),
      UNHURRIED_ADAPTER,
    );
  containers = [await start(), await start()];
});
afterAll(async () => {
  for (const container of containers) await container.close();
});

test('the same 1,000 events sent twice at once, in random batches of 1-20 through two containers: every issue counts exactly its distinct eventIds', async () => {
  const factoryId = newFactoryId('race');
  const { key } = await issuePublishableKey(factoryId, [SITE], { rateLimit: 1_000_000 });
  const events = Array.from({ length: EVENTS }, (_, index) => eventOf(index));
  const answers: HttpResponse[] = [];

  /** One pass: its own batches, IN_FLIGHT requests at a time on its container, each answered once. */
  const pass = async (api: LocalApi) => {
    const queue = randomBatches(events);
    const worker = async () => {
      for (let batch = queue.shift(); batch; batch = queue.shift()) {
        const res = await api.request('POST', '/ingest/v1/events', {
          headers: { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ events: batch }),
        });
        expect([res.status, res.json.accepted + res.json.duplicates]).toEqual([202, batch.length]);
        answers.push(res);
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  };
  await Promise.all(containers.map((api) => pass(api)));

  // What each issue must count: its distinct eventIds, by the grouping rule.
  const expected = new Map<string, number>();
  let filtered = 0;
  for (const event of events) {
    const grouping = groupEvent(event as Parameters<typeof groupEvent>[0]);
    if (!grouping.grouped) filtered += 1;
    else expected.set(issueIdOf(factoryId, grouping.fingerprint), (expected.get(issueIdOf(factoryId, grouping.fingerprint)) ?? 0) + 1);
  }
  expect(expected.size).toBe(GROUPS.length);

  await tallied();
  const issues = await new DynamoIssueStore(testDoc(), tables.reports).listIssues(factoryId, { limit: 100, nowMs: Date.now() });
  expect(new Map(issues.map((issue) => [issue.issueId, issue.count]))).toEqual(expected);
  expect(await new DynamoIssueStore(testDoc(), tables.reports).filteredCounts(factoryId)).toMatchObject({
    counts: { 'script-error': EVENTS / 20, 'browser-extension': EVENTS / 20 },
  });
  expect(filtered).toBe(EVENTS / 10);
  const stored = await storedReports(factoryId);
  expect(new Set(stored.map((event) => event.eventId)).size).toBe(EVENTS);
  expect(stored).toHaveLength(EVENTS);
  // Each eventId accepted once over both passes: the other pass's copy of it is a duplicate.
  const accepted = answers.reduce((sum, res) => sum + Number(res.json.accepted), 0);
  expect(accepted).toBe(EVENTS);
}, 240_000);

test('a resolved issue under a burst of its events reopens once: one regression, every event counted', async () => {
  const api = containers[0] as LocalApi;
  const tenant = await ingestTenant(api, [SITE], 'regress', 1_000_000);
  const first = { eventId: randomUUID(), message: 'boom', fingerprint: ['burst'] };
  expect((await tenant.events([first])).status).toBe(202);
  await tallied();
  const store = new DynamoIssueStore(testDoc(), tables.reports);
  const issueId = issueIdOf(tenant.factoryId, ['custom', 'burst']);
  await store.setIssueStatus(tenant.factoryId, issueId, { status: 'resolved', at: new Date().toISOString(), by: 'test', nowMs: Date.now() });
  const burst = Array.from({ length: 30 }, () => [{ eventId: randomUUID(), message: 'boom', fingerprint: ['burst'] }]);
  const answers = await Promise.all(
    burst.map((events, i) =>
      (containers[i % 2] as LocalApi).request('POST', '/ingest/v1/events', {
        headers: { Origin: SITE, Authorization: `Bearer ${tenant.key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events }),
      }),
    ),
  );
  expect(answers.map((res) => res.status)).toEqual(burst.map(() => 202));
  await tallied();
  expect(await store.getIssue(tenant.factoryId, issueId, Date.now())).toMatchObject({ status: 'open', count: 31, regressions: 1 });
}, 120_000);
