import { randomUUID } from 'node:crypto';
import { withGrouping } from '../../lambda/ingest/receive-events';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';
import { loadControlHandler } from '../support/control';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The issue list of a factory with 500 issues (docs/report-issues.md#the-issue-list),
 * through the control-room function's entry point on DynamoDB Local: every
 * issue is reachable by following the cursor, once, in each order (last
 * seen, events, visitors), of one status or of all, and with a title search.
 * The issues are counted by the tally's own code from stream batches the
 * test hands it.
 */
const control = loadControlHandler({ REPORTS_TABLE_NAME: tables.reports, KEYS_TABLE_NAME: tables.keys });
const ISSUES = 500;
const WORDS = ['checkout', 'login', 'search', 'cart', 'render'];
const factoryId = newFactoryId('list500');
const T0 = Date.now() - 3_600_000;

interface Seeded {
  issueId: string;
  title: string;
  count: number;
  visitors: number;
  lastSeen: string;
  status: string;
}
let seeded: Seeded[] = [];

/** Issue i: (i % 7) + 1 events from (i % 5) + 1 visitors; three issues last seen in each second (ties broken by id). */
function eventsOf(i: number): StoredEvent[] {
  const count = (i % 7) + 1;
  return Array.from({ length: count }, (_, n) =>
    withGrouping({
      factoryId,
      keyId: 'key_list',
      origin: 'https://shop.example',
      receivedAt: new Date(T0 + Math.floor(i / 3) * 1000 - (count - 1 - n) * 10).toISOString(),
      expiresAt: Math.floor(T0 / 1000) + 86_400 * 30,
      writeToken: `w${i}-${n}`,
      eventId: randomUUID(),
      type: 'error',
      message: `${WORDS[i % WORDS.length]} ${i} failed`,
      fingerprint: [`issue ${i}`],
      visitor: `AAAAAA${String.fromCharCode(65 + (n % ((i % 5) + 1)))}${String.fromCharCode(65 + (i % 26))}`,
    }),
  );
}

beforeAll(async () => {
  const events = Array.from({ length: ISSUES }, (_, i) => eventsOf(i)).flat();
  const sequenced = events.map((event, n) => ({ seq: padSequence(String(1000 + n)), event }));
  const tally = new DynamoTallyStore(testDoc(), tables.reports);
  // Stream batches of about 25 issues each, one after the other, as one shard's would come.
  for (let from = 0; from < sequenced.length; from += 100) await tallyBatch(tally, 'shard-list500', sequenced.slice(from, from + 100));
  const first = await control.call({ operation: 'issues.list', factoryId, limit: 1000, status: 'open' });
  expect(first.body.issues).toHaveLength(ISSUES);
  // Every tenth resolved, so that a status filter leaves some out.
  const byIssue = new Map((first.body.issues as Seeded[]).map((issue) => [Number(/ (\d+) /.exec(issue.title)?.[1]), issue]));
  for (let i = 0; i < ISSUES; i += 10)
    expect((await control.call({ operation: 'issues.resolve', factoryId, issueId: byIssue.get(i)?.issueId })).status).toBe(200);
  seeded = Array.from({ length: ISSUES }, (_, i) => {
    const issue = byIssue.get(i) as Seeded;
    return {
      issueId: issue.issueId,
      title: issue.title,
      count: (i % 7) + 1,
      visitors: Math.min((i % 5) + 1, (i % 7) + 1),
      lastSeen: issue.lastSeen,
      status: i % 10 === 0 ? 'resolved' : 'open',
    };
  });
}, 120_000);

/** Every page of a list, following its cursor, `limit` at a time. */
async function allPages(request: Record<string, unknown>, limit: number): Promise<{ issues: Seeded[]; pages: number; bodies: Record<string, unknown>[] }> {
  const issues: Seeded[] = [];
  const bodies: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  do {
    const { status, body } = await control.call({ operation: 'issues.list', factoryId, ...request, limit, ...(cursor ? { cursor } : {}) });
    expect(status).toBe(200);
    expect((body.issues as unknown[]).length).toBeLessThanOrEqual(limit);
    issues.push(...(body.issues as Seeded[]));
    bodies.push(body);
    cursor = body.cursor;
  } while (cursor !== undefined && bodies.length <= ISSUES);
  return { issues, pages: bodies.length, bodies };
}

const ids = (list: readonly Seeded[]) => list.map((issue) => issue.issueId);
const desc = (a: string | number, b: string | number) => (a < b ? 1 : a > b ? -1 : 0);
/** The order each sort promises: greatest first, ties by id descending. */
const ordered = (list: readonly Seeded[], value: (issue: Seeded) => string | number) =>
  ids([...list].sort((a, b) => desc(value(a), value(b)) || desc(a.issueId, b.issueId)));

test('most recently seen first: all 500 issues of every status are reached by the cursor, each once, in order (ties by id), 100 a page', async () => {
  const { issues, pages } = await allPages({}, 100);
  expect(pages).toBe(5);
  expect(new Set(ids(issues)).size).toBe(ISSUES);
  expect(ids(issues)).toEqual(ordered(seeded, (issue) => issue.lastSeen));
});

test('one status, pages of 77: the 450 open issues, each once, in order', async () => {
  const { issues } = await allPages({ status: 'open' }, 77);
  expect(ids(issues)).toEqual(
    ordered(
      seeded.filter((issue) => issue.status === 'open'),
      (issue) => issue.lastSeen,
    ),
  );
});

test('most events first: all 500 reached, by count then id; the answer says all of them were read to sort', async () => {
  const { issues, bodies } = await allPages({ sort: 'events' }, 100);
  expect(ids(issues)).toEqual(ordered(seeded, (issue) => issue.count));
  expect(bodies[0]).toMatchObject({ scanned: ISSUES, complete: true });
});

test('most visitors first: all 500 reached, by visitors (exact here) then id', async () => {
  const { issues } = await allPages({ sort: 'visitors' }, 100);
  expect(ids(issues)).toEqual(ordered(seeded, (issue) => issue.visitors));
  expect(issues.map((issue) => issue.visitors)).toEqual([...seeded.map((issue) => issue.visitors)].sort((a, b) => b - a));
});

test('a title search ignores case and pages like any list: the 100 "checkout" issues, 30 a page', async () => {
  const { issues, pages } = await allPages({ search: 'CHECKOUT', status: undefined }, 30);
  expect(pages).toBe(4);
  expect(ids(issues)).toEqual(
    ordered(
      seeded.filter((issue) => issue.title.startsWith('checkout ')),
      (issue) => issue.lastSeen,
    ),
  );
  const { issues: none } = await allPages({ search: 'no such title' }, 30);
  expect(none).toEqual([]);
});

test('a cursor goes on only in its own list: another order, search or factory is a 400 in words', async () => {
  const { body } = await control.call({ operation: 'issues.list', factoryId, limit: 10 });
  expect(body.cursor).toEqual(expect.any(String));
  const other = await control.call({ operation: 'issues.list', factoryId, limit: 10, sort: 'events', cursor: body.cursor });
  expect(other).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^cursor belongs to another list/) } });
  const elsewhere = await control.call({ operation: 'issues.list', factoryId: 'fac_elsewhere', limit: 10, cursor: body.cursor });
  expect(elsewhere).toMatchObject({ status: 400, body: { error: `cursor belongs to another factory (${factoryId}), not fac_elsewhere` } });
  const garbage = await control.call({ operation: 'issues.list', factoryId, cursor: 'not-a-cursor' });
  expect(garbage).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^cursor is not one this service returned/) } });
  for (const [request, error] of [
    [{ sort: 'title' }, 'sort must be one of lastSeen, events, visitors, people'],
    [{ search: '' }, 'search must not be empty'],
    [{ search: 'x'.repeat(201) }, 'search must be at most 200 characters'],
  ] as const) {
    expect(await control.call({ operation: 'issues.list', factoryId, ...request })).toMatchObject({ status: 400, body: { error } });
  }
});

test('issues.show answers the trend: 24 hours and 14 days ending now, every event of the issue in them, missing periods as 0', async () => {
  const issue = seeded[6] as Seeded;
  const { status, body } = await control.call({ operation: 'issues.show', factoryId, issueId: issue.issueId });
  expect(status).toBe(200);
  const { hourly, daily } = body.trend as { hourly: { start: string; events: number }[]; daily: { start: string; events: number }[] };
  expect([hourly.length, daily.length]).toEqual([24, 14]);
  expect(hourly[23]?.start).toBe(new Date().toISOString().slice(0, 13));
  expect(daily[13]?.start).toBe(new Date().toISOString().slice(0, 10));
  const sum = (points: { events: number }[]) => points.reduce((total, point) => total + point.events, 0);
  expect([sum(hourly), sum(daily)]).toEqual([7, 7]);
  expect(hourly.filter((point) => point.events === 0).length).toBeGreaterThanOrEqual(22);
  expect(body.issue).toMatchObject({ count: 7, visitors: 2, visitorsExact: true });
});
