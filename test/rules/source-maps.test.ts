import { randomUUID } from 'node:crypto';
import { hashSecret } from '../../lambda/kernel/api-key';
import { frameResolverOf } from '../../lambda/ingest/api/ingest-wiring';
import { groupEvent, issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { receiveEvents, type ReceiveDependencies, type RequestReceipt } from '../../lambda/ingest/receive-events';
import type { PublishableKey } from '../../lambda/ingest/ports';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { MemorySourceMapStore } from '../../lambda/infrastructure/memory/memory-source-map-store';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { framesForDisplay } from '../../lambda/ingest/sourcemaps/display-frames';
import { whyNotResolved } from '../../lambda/ingest/issues/resolved-frames';
import { IngestFrameResolver } from '../../lambda/ingest/sourcemaps/ingest-frames';
import { MapCache, NEGATIVE_ANSWER_MS } from '../../lambda/ingest/sourcemaps/map-cache';
import { SourceMapLoader } from '../../lambda/ingest/sourcemaps/map-loader';
import { buildBoth, throwIn, type BuiltApp } from '../support/source-map-app';
import { issueByAnyId, withCountingIssue } from '../../lambda/control/issue-ids';

/**
 * Source maps on the in-memory ports (docs/source-maps.md): a real app built minified twice (the second build's
 * minifier names the bug's functions differently), its errors thrown in V8 and received by the ingest rules with
 * the maps in the memory twin of the map store. test/store/issue-aliases.test.ts holds the tally's part on
 * DynamoDB Local; test/browser/source-maps.test.ts the same through real browsers.
 */

const FACTORY = 'fac_maps';
const KEY_HASH = hashSecret('dfpk_maps');
const key: PublishableKey = { factoryId: FACTORY, keyId: 'key_0000000000000009', origins: ['https://shop.example.com'], rateLimit: 6000 };

let build1: BuiltApp;
let build2: BuiltApp;
beforeAll(async () => {
  [build1, build2] = await buildBoth();
});

/** The ingest rules on memory, with maps from `maps` through a resolver of its own (one container). */
function world(options: { resolver?: IngestFrameResolver; maps?: MemorySourceMapStore } = {}) {
  const reports = new MemoryReportStore();
  const maps = options.maps ?? new MemorySourceMapStore();
  const keys = new MemoryIngestKeys();
  keys.issue(KEY_HASH, { type: 'publishable', factoryId: FACTORY, keyId: key.keyId, rateLimit: key.rateLimit, origins: key.origins });
  const deps: ReceiveDependencies = { reports, issueLimits: new MemoryIssueLimiter(), keys, frames: options.resolver ?? frameResolverOf(maps) };
  let clock = Date.parse('2026-11-27T10:00:00Z');
  const send = async (app: BuiltApp, extra: Record<string, unknown> = {}, factoryId = FACTORY) => {
    const thrown = throwIn(app);
    const eventId = randomUUID();
    clock += 1000;
    const receipt: RequestReceipt = {
      factoryId,
      keyId: key.keyId,
      origin: 'https://shop.example.com',
      receivedAt: new Date(clock).toISOString(),
      expiresAt: 1_900_000_000,
      requestToken: randomUUID(),
    };
    const body = {
      events: [
        {
          eventId,
          type: 'error',
          message: `${thrown.type}: ${thrown.value}`,
          exception: thrown,
          ...(thrown.debugIds ? { debugIds: thrown.debugIds } : {}),
          ...extra,
        },
      ],
    };
    const outcome = await receiveEvents(deps, body, receipt, { key: { ...key, factoryId }, keyHash: KEY_HASH }, clock);
    return { outcome, event: reports.events.get(`${factoryId}#${eventId}`) as StoredEvent };
  };
  const upload = (app: BuiltApp, factoryId = FACTORY) => maps.put(factoryId, { kind: 'debugId', debugId: app.debugId }, app.map);
  const issues = () => reports.listIssues(FACTORY, { limit: 100, nowMs: clock + 1000 });
  return { reports, maps, send, upload, issues };
}

/** The issue the frames as sent would have opened (grouping version 1). */
const minifiedIssueOf = (event: StoredEvent) => {
  const grouping = groupEvent(event);
  if (!grouping.grouped) throw new Error('not grouped');
  return issueIdOf(event.factoryId, grouping.fingerprint);
};

test("the minifier names the bug's functions differently in the two builds: as sent, their errors are two issues", () => {
  const [a, b] = [throwIn(build1), throwIn(build2)];
  const names = (stack: string) => [...stack.matchAll(/at (\w+) \(/g)].map((match) => match[1]);
  expect(names(a.stack)).not.toEqual(names(b.stack));
  expect(issueIdOf(FACTORY, (groupEvent({ exception: a }) as { fingerprint: string[] }).fingerprint)).not.toBe(
    issueIdOf(FACTORY, (groupEvent({ exception: b }) as { fingerprint: string[] }).fingerprint),
  );
});

test("with both builds' maps uploaded, the same bug in the two builds is one issue with an exact count", async () => {
  const { send, upload, issues } = world();
  upload(build1);
  upload(build2);
  for (const app of [build1, build2, build1, build2, build2]) expect((await send(app)).outcome.accepted).toBe(1);
  const list = await issues();
  expect(list).toHaveLength(1);
  expect(list[0]?.count).toBe(5);
});

test('a resolved frame names its original function, source file, line and column and carries its source line', async () => {
  const { send, upload } = world();
  upload(build2);
  const { event } = await send(build2);
  const [top, middle, outer] = event.frames ?? [];
  expect(top?.original).toEqual({
    source: expect.stringMatching(/src\/cart\.js$/),
    line: 5,
    column: expect.any(Number),
    fn: 'cartItems',
    contextLine: 'return session.cart.items;',
  });
  expect(middle?.original).toMatchObject({
    source: expect.stringMatching(/src\/cart\.js$/),
    line: 9,
    fn: 'countItems',
    contextLine: 'const items = cartItems();',
  });
  // Build 2 has 7 lines of another function above renderBadge.
  expect(outer?.original).toMatchObject({ source: expect.stringMatching(/src\/main\.js$/), line: 11, contextLine: 'const count = countItems();' });
  expect(top).toMatchObject({ debugId: build2.debugId, file: build2.url });
});

test("a map uploaded after an issue's first events splits nothing: later events of that build, and of another build, count into the same issue", async () => {
  let now = 0;
  const maps = new MemorySourceMapStore();
  const resolver = new IngestFrameResolver(new SourceMapLoader(maps, new MapCache(undefined, () => now)));
  const { send, upload, issues } = world({ resolver, maps });
  const first = await send(build1);
  expect(first.event.frames?.[0]?.unresolved).toBe('no-map');
  await send(build1);
  upload(build1);
  // The container believed "no map" for a minute: past it, the map is read.
  now += NEGATIVE_ANSWER_MS + 1;
  const late = await send(build1);
  expect(late.event.frames?.[0]?.original?.fn).toBe('cartItems');
  upload(build2);
  await send(build2);
  const list = await issues();
  expect(list.map((issue) => [issue.issueId, issue.count])).toEqual([[minifiedIssueOf(first.event), 4]]);
});

test("every issue id an event shows opens the issue that counts it: a later build's event stored under another id is found by it, and shows its issue", async () => {
  let now = 0;
  const maps = new MemorySourceMapStore();
  const resolver = new IngestFrameResolver(new SourceMapLoader(maps, new MapCache(undefined, () => now)));
  const { reports, send, upload, issues } = world({ resolver, maps });
  const first = await send(build1);
  upload(build1);
  upload(build2);
  now += NEGATIVE_ANSWER_MS + 1;
  await send(build1);
  const later = await send(build2);
  const [issue] = await issues();
  expect(issue?.count).toBe(3);
  expect(issue?.issueId).toBe(first.event.issueId);
  // Stored with the id its resolved frames name, which no issue has: the tally made it an alias of the one that counts it.
  expect(later.event.issueId).not.toBe(issue?.issueId);
  expect(await reports.getIssue(FACTORY, later.event.issueId as string, Date.now())).toBeUndefined();
  expect((await issueByAnyId(reports, FACTORY, later.event.issueId as string, Date.now()))?.issueId).toBe(issue?.issueId);
  const shown = await withCountingIssue(reports, FACTORY, [later.event, first.event] as unknown as Record<string, unknown>[]);
  expect(shown.map((event) => event.issueId)).toEqual([issue?.issueId, issue?.issueId]);
  expect(await issueByAnyId(reports, FACTORY, 'iss_00000000000000000000', Date.now())).toBeUndefined();
});

test('a broken map never fails the event: it is stored, grouped as sent, and each frame says the map is broken', async () => {
  const { send, maps, issues } = world();
  maps.put(FACTORY, { kind: 'debugId', debugId: build1.debugId }, '{"version": 3, "mappings": ');
  const { outcome, event } = await send(build1);
  expect(outcome.accepted).toBe(1);
  expect(event.frames?.slice(0, 3).map((frame) => frame.unresolved)).toEqual(['map-broken', 'map-broken', 'map-broken']);
  expect((await issues()).map((issue) => issue.issueId)).toEqual([minifiedIssueOf(event)]);
  expect(whyNotResolved(event.frames?.[0] as never, event)).toMatch(/not a valid source map/);
});

test('without a map the event is grouped as sent and each frame says which debug id has no map', async () => {
  const { send, issues } = world();
  const { event } = await send(build1);
  expect(event.frames?.[0]).toMatchObject({ unresolved: 'no-map', debugId: build1.debugId });
  expect(whyNotResolved(event.frames?.[0] as never, event)).toContain(`no map uploaded for debug id ${build1.debugId}`);
  expect((await issues()).map((issue) => issue.issueId)).toEqual([minifiedIssueOf(event)]);
});

test('a map store that does not answer in time holds no event: it is stored when the budget ends, its frames "map-slow"', async () => {
  const maps = new MemorySourceMapStore();
  const budget = new AbortController();
  const resolver = new IngestFrameResolver(new SourceMapLoader(maps), () => budget.signal);
  const { send, upload } = world({ resolver, maps });
  upload(build1);
  maps.hold();
  const sending = send(build1);
  await new Promise((resolve) => setImmediate(resolve));
  expect(maps.reads).toHaveLength(1);
  budget.abort();
  const { outcome, event } = await sending;
  expect(outcome.accepted).toBe(1);
  expect(event.frames?.[0]?.unresolved).toBe('map-slow');
  maps.release();
});

test('a failing map store fails no event: frames "map-slow", grouped as sent', async () => {
  const { send, upload, maps } = world();
  upload(build1);
  maps.failing = true;
  const { outcome, event } = await send(build1);
  expect(outcome.accepted).toBe(1);
  expect(event.frames?.[0]?.unresolved).toBe('map-slow');
});

test('a map over the resolver\'s memory bound is refused unparsed: frames "map-refused"', async () => {
  const maps = new MemorySourceMapStore();
  const resolver = new IngestFrameResolver(new SourceMapLoader(maps, new MapCache(1024)));
  const { send, upload } = world({ resolver, maps });
  upload(build1);
  const { event } = await send(build1);
  expect(event.frames?.[0]?.unresolved).toBe('map-refused');
});

test("one factory's map never resolves another factory's events", async () => {
  const { send, upload } = world();
  upload(build1, 'fac_other');
  const { event } = await send(build1);
  expect(event.frames?.[0]?.unresolved).toBe('no-map');
});

test('a script the page registered no debug id for, while others have one, is a URL mismatch; with a release it is looked up by path', async () => {
  const { send, maps } = world();
  const elsewhere = { 'https://shop.example.com/assets/vendor-0aa1bb2c.js': randomUUID() };
  const mismatch = await send(build1, { debugIds: elsewhere });
  expect(mismatch.event.frames?.[0]?.unresolved).toBe('url-mismatch');
  expect(whyNotResolved(mismatch.event.frames?.[0] as never, mismatch.event)).toMatch(/not the injected one/);
  const path = `~${new URL(build1.url).pathname}`;
  maps.put(FACTORY, { kind: 'release', release: 'web@1', path }, build1.map);
  const byRelease = await send(build1, { debugIds: null, release: 'web@1' });
  expect(byRelease.event.frames?.[0]?.original?.fn).toBe('cartItems');
});

test('a position outside the map is said so, not resolved to a wrong place', async () => {
  const { send, upload } = world();
  upload(build1);
  const { stack, ...rest } = throwIn(build1);
  const shifted = stack.replace(/:2:(\d+)\)/g, ':40:$1)');
  const { event } = await send(build1, { exception: { ...rest, stack: shifted } });
  expect(event.frames?.[0]?.unresolved).toBe('outside-map');
});

test('a parsed map is read from storage once per container, and a missing one once a minute', async () => {
  const { send, upload, maps } = world();
  upload(build1);
  await send(build1);
  await send(build1);
  await send(build2);
  await send(build2);
  expect(maps.reads.map((read) => (read.ref.kind === 'debugId' ? read.ref.debugId : ''))).toEqual([build1.debugId, build2.debugId]);
});

test('an event stored before its map is shown resolved once the map is uploaded: original frames with their source lines, the minified frame beside', async () => {
  const { send, upload } = world();
  const { event } = await send(build1);
  const display = new SourceMapLoader(new MemorySourceMapStore(), new MapCache(undefined, Date.now, 0));
  const { maps } = world();
  const shown = new SourceMapLoader(maps, new MapCache(undefined, Date.now, 0));
  expect((await framesForDisplay(event, display))?.[0]).toMatchObject({
    minified: { function: expect.any(String), url: build1.url },
    whyNotResolved: expect.stringContaining('no map uploaded'),
  });
  maps.put(FACTORY, { kind: 'debugId', debugId: build1.debugId }, build1.map);
  upload(build1);
  const [top] = (await framesForDisplay(event, shown)) ?? [];
  expect(top).toMatchObject({ function: 'cartItems', source: expect.stringMatching(/src\/cart\.js$/), line: 5, minified: { url: build1.url, line: 2 } });
  expect(top?.context).toEqual({
    firstLine: 2,
    lines: [
      '',
      "/** The visitor's cart items: throws when the session has no cart (the bug). */",
      'export function cartItems() {',
      '  return session.cart.items;',
      '}',
      '',
      'export function countItems() {',
    ],
  });
  expect(top?.whyNotResolved).toBeUndefined();
});
