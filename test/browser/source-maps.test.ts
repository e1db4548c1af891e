import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { launchEngine, type Engine, type EngineName, type Tab } from '../../tools/browsers/engines';
import { engineCases, localService, openSdkTab, serveSite, storedWhen } from '../support/browser-sdk';
import { buildSdk } from '../support/sdk-build';
import { runScript } from '../support/commands';
import { startControlRoom, type ControlRoom } from '../support/control-room';
import { endpoint, newFactoryId, tables, testDoc } from '../support/local-api';
import { writeBuilds } from '../support/source-map-app';
import { testMapStore } from '../support/sourcemaps';
import { tallied } from '../support/tally';

/**
 * Source maps through the public path, end to end (issue 41): the same bug built minified twice (the second
 * build's minifier names its functions differently), `sourcemaps inject` run on the build folder and
 * `sourcemaps upload` run against `npm start`, both through the CLI as a user runs them; the page served with
 * the injected scripts and the real SDK, thrown in every engine; then the issue as the tally counted it, and
 * the frames as `reports -- issue` and the control room's event page show them.
 *
 * Two factories share the build (its debug ids):
 * - `mapped` had both maps uploaded before its errors: each engine's two errors resolve at ingest, and all of
 *   them are one issue, with an exact count;
 * - `late` first tried to upload maps that are broken (refused, saying why, nothing stored), so its errors stay
 *   minified and say there is no map for their debug id, though `mapped` holds maps for the very same ids.
 *   Its upload of the good maps then finds none of `mapped`'s (it uploads both), its earlier events read resolved
 *   at once, and after a restart of npm start (a new container: the "no map" answer it kept is gone) its next
 *   errors resolve at ingest and count into the issue its minified errors opened: nothing splits.
 * One page load per engine and factory; the engines stay open for the late factory's second round.
 */

const RELEASE = 'web@2';
/**
 * npm start, `reports` and the control room wait for maps as long as it takes (docs/source-maps.md#resolving): a
 * read past their budgets on a loaded machine is the machine's, not the service's.
 */
const UNHURRIED_MAPS = { SOURCE_MAP_BUDGET_MS: '60000' };
const budgetBefore = process.env.SOURCE_MAP_BUDGET_MS;
const SCRIPTS = ['/assets/app-1.js', '/assets/app-2.js'];
const engines: EngineName[] = engineCases().map(({ engine }) => engine);
const mapped = newFactoryId('maps');
const late = newFactoryId('maps-late');
const issues = new DynamoIssueStore(testDoc(), tables.reports);

let service: Awaited<ReturnType<typeof localService>>;
let site: Awaited<ReturnType<typeof serveSite>>;
let room: ControlRoom;
let dist: string;
const folders: string[] = [];
let debugIds: string[] = [];
const pages = new Map<string, string>();
const uploads: { good?: Awaited<ReturnType<typeof sourcemaps>>; broken?: Awaited<ReturnType<typeof sourcemaps>> } = {};
const open = new Map<EngineName, { engine: Engine; lateTab?: Tab }>();

/** `npm run --silent sourcemaps -- …` as a user runs it beside this test's npm start (found by its data folder). */
async function sourcemaps(args: string[]): Promise<{ status: number | null; json: Record<string, any> }> {
  const run = await runScript('sourcemaps', args, { CONTACTS_DATA_DIR: service.dataDir });
  try {
    return { status: run.status, json: JSON.parse(run.stdout) as Record<string, any> };
  } catch {
    throw new Error(`sourcemaps ${args.join(' ')} printed no JSON (exit ${run.status}):\n${run.stdout}${run.stderr}`);
  }
}

/** A copy of the injected build whose maps are broken: their mappings hold characters that are not base64 VLQ. */
function brokenCopy(dist: string, maps: string[]): string {
  const copy = mkdtempSync(join(tmpdir(), 'maps-broken-'));
  cpSync(dist, copy, { recursive: true });
  for (const map of maps) {
    const json = JSON.parse(readFileSync(join(copy, map), 'utf8')) as { mappings: string };
    writeFileSync(join(copy, map), JSON.stringify({ ...json, mappings: `${json.mappings};../../etc/passwd` }));
  }
  return copy;
}

/** Loads one build's script into the page and lets its bug throw from a timer, uncaught, as in production. */
async function throwFrom(tab: Tab, script: string): Promise<void> {
  await tab.evaluate(
    `new Promise(function (done) { var s = document.createElement('script'); s.src = ${JSON.stringify(script)}; s.onload = done; document.head.appendChild(s); })`,
  );
  await tab.evaluate('setTimeout(renderBadge)');
}

const ofEngine = (events: Record<string, any>[], name: EngineName) => events.filter((event) => String(event.pageUrl).includes(`/${name}/`));

/** The factory's issues once the run's tally has counted every stored event. */
async function issuesOf(factoryId: string) {
  await tallied();
  return issues.listIssues(factoryId, { limit: 20, nowMs: Date.now() });
}

/** A frame as the display shows it, resolved: original function, source file, line, column and the source line, marked. */
function expectOriginal(frame: Record<string, any> | undefined, fn: string | undefined, line: number, text: string): void {
  expect(frame).toMatchObject({
    source: expect.stringMatching(/(^|\/)src\/cart\.js$/),
    line,
    column: expect.any(Number),
    minified: expect.objectContaining({ url: expect.stringMatching(/\/assets\/app-[12]\.js$/) }),
  });
  if (fn) expect(frame?.function).toBe(fn);
  const { firstLine, lines } = frame?.context as { firstLine: number; lines: string[] };
  expect(lines[line - firstLine]).toBe(text);
}

/** The build as CI has it: written by the bundler, then injected by the CLI; the ids `inject` gave its scripts. */
async function injectedBuild(): Promise<{ maps: string[]; ids: string[] }> {
  await writeBuilds(dist);
  const injected = await runScript('sourcemaps', ['inject', dist]);
  if (injected.status !== 0) throw new Error(`sourcemaps inject failed:\n${injected.stdout}${injected.stderr}`);
  const { files } = JSON.parse(injected.stdout) as { files: { path: string; map: string; debugId: string }[] };
  return { maps: files.map((file) => file.map), ids: files.map((file) => file.debugId) };
}

/** The engines, one after the other (two at once would only fight over the machine's two cores). */
async function launchEngines(): Promise<void> {
  for (const name of engines) open.set(name, { engine: await launchEngine(name) });
}

beforeAll(async () => {
  dist = mkdtempSync(join(tmpdir(), 'maps-dist-'));
  folders.push(dist);
  const [{ script }, build] = await Promise.all([buildSdk(), injectedBuild(), (async () => (service = await localService(UNHURRIED_MAPS)))(), launchEngines()]);
  debugIds = build.ids;
  const broken = brokenCopy(dist, build.maps);
  folders.push(broken);
  site = await serveSite(
    { '/contacts-ingest.min.js': script, ...Object.fromEntries(SCRIPTS.map((path) => [path, readFileSync(join(dist, path), 'utf8')])) },
    (path) => pages.get(path) ?? '',
  );
  [uploads.good, uploads.broken] = await Promise.all([
    sourcemaps(['upload', '--factory', mapped, '--release', RELEASE, dist]),
    sourcemaps(['upload', '--factory', late, '--release', RELEASE, broken]),
  ]);
  // The control room in this process reads its budget from this process's environment.
  process.env.SOURCE_MAP_BUDGET_MS = UNHURRIED_MAPS.SOURCE_MAP_BUDGET_MS;
  room = await startControlRoom();
}, 240_000);

afterAll(async () => {
  for (const { engine } of open.values()) await engine.close();
  site?.close();
  await room?.close();
  await service?.close();
  if (budgetBefore === undefined) delete process.env.SOURCE_MAP_BUDGET_MS;
  else process.env.SOURCE_MAP_BUDGET_MS = budgetBefore;
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** The control room's page of an event: its frames' list. */
async function framesOnPage(factoryId: string, eventId: string): Promise<string> {
  const page = await room.get(`/f/${factoryId}/reports/events/${eventId}`);
  expect(page.status).toBe(200);
  return /<ol class="frames" id="event-frames">([\s\S]*?)<\/ol>/.exec(page.text)?.[1] ?? '';
}

describe('the build through the CLI', () => {
  test('upload stores both injected maps for the first factory, under the ids inject gave the scripts', async () => {
    expect(uploads.good).toMatchObject({ status: 0, json: { uploaded: 2, alreadyStored: 0 } });
    expect(uploads.good?.json.maps.map((map: { ref: unknown }) => map.ref)).toEqual(debugIds.map((debugId) => ({ debugId })));
  });

  test('upload of broken maps exits 1 naming the map and what is wrong with it, and stores nothing', async () => {
    expect(uploads.broken?.status).toBe(1);
    expect(uploads.broken?.json.error).toMatch(/assets\/app-1\.js\.map \(for assets\/app-1\.js\) was refused: 422: .*not base64 VLQ/);
    for (const debugId of debugIds) expect(await testMapStore().get(late, { kind: 'debugId', debugId })).toBeUndefined();
  });
});

describe.each(engines)('in %s', (name) => {
  const tabOf = async (factoryId: string) =>
    (
      await openSdkTab({
        engine: open.get(name)?.engine as Engine,
        engineName: name,
        pages,
        site,
        baseUrl: service.baseUrl,
        factoryPrefix: 'maps',
        factoryId,
        path: `/shop-${factoryId}`,
        options: { release: RELEASE, dedupe: false },
        body: '',
      })
    ).page;

  test('both builds, injected and uploaded through the CLI, throw errors whose frames resolve at ingest and which count into one issue', async () => {
    const tab = await tabOf(mapped);
    for (const [index, script] of SCRIPTS.entries()) {
      await throwFrom(tab, script);
      await storedWhen(mapped, `the error of build ${index + 1}`, (events) => ofEngine(events, name).length >= index + 1);
    }
    const all = await storedWhen(mapped, 'both errors', (found) => ofEngine(found, name).length >= 2);
    const events = ofEngine(all, name);
    expect(events.map((event) => Object.values(event.debugIds ?? {})).sort()).toEqual(debugIds.map((id) => [id]).sort());
    for (const event of events) {
      const [top, caller] = event.frames ?? [];
      expect(top?.original).toMatchObject({
        source: expect.stringMatching(/src\/cart\.js$/),
        line: 5,
        fn: 'cartItems',
        contextLine: 'return session.cart.items;',
      });
      expect(caller?.original).toMatchObject({
        source: expect.stringMatching(/src\/cart\.js$/),
        line: 9,
        fn: 'countItems',
        contextLine: 'const items = cartItems();',
      });
    }
    // Every error stored so far (this engine's and those before it), of both builds, in one issue counted exactly.
    expect((await issuesOf(mapped)).map((issue) => issue.count)).toEqual([all.length]);
  }, 120_000);

  test("a second factory's error with the same debug ids stays minified, its broken maps refused: no map for its debug id, though the first factory has one", async () => {
    const tab = await tabOf(late);
    open.set(name, { ...(open.get(name) as { engine: Engine }), lateTab: tab });
    await throwFrom(tab, SCRIPTS[0] as string);
    const [event] = ofEngine(await storedWhen(late, 'the error', (events) => ofEngine(events, name).length >= 1), name);
    const [top] = event?.frames ?? [];
    expect(top).toMatchObject({ debugId: debugIds[0], unresolved: 'no-map' });
    expect(top?.original).toBeUndefined();
    expect(await framesOnPage(late, event?.eventId)).toContain(`Not resolved: no map uploaded for debug id ${debugIds[0]}`);
  }, 120_000);
});

describe('read back', () => {
  test("`reports -- issue --minified` prints every engine's errors of both builds with their original frames (function, source file, line, column, source line) and the minified frame beside each", async () => {
    const [issue] = await issuesOf(mapped);
    const run = await runScript('reports', ['issue', '--factory', mapped, '--issue', String(issue?.issueId), '--limit', '20', '--minified'], {
      ...UNHURRIED_MAPS,
      DYNAMODB_ENDPOINT: endpoint(),
    });
    expect(run.status).toBe(0);
    const answer = JSON.parse(run.stdout) as { issue: { count: number }; events: { frames: Record<string, any>[] }[] };
    expect(answer.issue.count).toBe(2 * engines.length);
    expect(answer.events).toHaveLength(2 * engines.length);
    for (const { frames } of answer.events) {
      expectOriginal(frames[0], 'cartItems', 5, '  return session.cart.items;');
      expectOriginal(frames[1], 'countItems', 9, '  const items = cartItems();');
    }
  }, 60_000);

  test("the control room's event page shows each error's original frames, the frame's source line marked", async () => {
    const events = await storedWhen(mapped, 'every error', (found) => found.length >= 2 * engines.length);
    for (const event of events) {
      const frames = await framesOnPage(mapped, event.eventId);
      expect(frames).toContain('<strong>cartItems</strong>');
      expect(frames).toMatch(/src\/cart\.js:5:\d+/);
      expect(frames).toMatch(/<span class="frame-line">&gt;\s+5 \| {3}return session\.cart\.items;/);
    }
  }, 60_000);
});

describe('a map uploaded late', () => {
  test("the second factory's upload finds none of the first factory's maps, and its events stored before read resolved at once", async () => {
    const uploaded = await sourcemaps(['upload', '--factory', late, '--release', RELEASE, dist]);
    expect(uploaded).toMatchObject({ status: 0, json: { uploaded: 2, alreadyStored: 0 } });
    const events = await storedWhen(late, 'every error', (found) => found.length >= engines.length);
    for (const event of events) {
      expect(event.frames?.[0]?.unresolved).toBe('no-map');
      const frames = await framesOnPage(late, event.eventId);
      expect(frames).toContain('<strong>cartItems</strong>');
      expect(frames).not.toContain('no map uploaded');
    }
  }, 60_000);

  test('after a restart, its next errors of both builds resolve at ingest and count into the issue its minified errors opened: no issue splits', async () => {
    const before = await issuesOf(late);
    // A new container: the "no map" answers npm start kept for a minute are gone with it.
    await service.stop();
    await service.start();
    for (const name of engines) {
      const tab = open.get(name)?.lateTab as Tab;
      for (const [index, script] of SCRIPTS.entries()) {
        await throwFrom(tab, script);
        await storedWhen(late, `${name}'s resolved error of build ${index + 1}`, (events) => ofEngine(events, name).length >= 2 + index);
      }
    }
    const events = await storedWhen(late, 'every error', (found) => found.length >= 3 * engines.length);
    expect(events.filter((event) => event.frames?.[0]?.original?.fn === 'cartItems')).toHaveLength(2 * engines.length);
    const after = await issuesOf(late);
    // The same issues, no new one; the resolved errors all in one of them, the others' counts unchanged.
    expect(after.map((issue) => issue.issueId).sort()).toEqual(before.map((issue) => issue.issueId).sort());
    const grown = after.map((issue) => issue.count - (before.find((old) => old.issueId === issue.issueId)?.count ?? 0));
    expect(grown.filter((added) => added !== 0)).toEqual([2 * engines.length]);
  }, 180_000);
});
