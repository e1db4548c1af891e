import { stop as stopEsbuild } from 'esbuild';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { mapReaderFromEnv } from '../../lambda/infrastructure/store/source-maps/s3-map-reader';
import { engineCases, engineOfBlock, engineTest, serveSite, storedWhen } from '../support/browser-sdk';
import { until } from '../support/until';
import { buildSdk } from '../support/sdk-build';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { buildBoth, type BuiltApp } from '../support/source-map-app';
import { sha256Hex, testMapStore } from '../support/sourcemaps';
import { sentryBrowserBundle } from '../support/sentry-browser-bundle';
import { bundledAppPath, sentryBundledApp, type BundledApp } from '../support/sentry-bundled-app';

/**
 * The unmodified official @sentry/browser on a page whose minified app was injected as `sourcemaps inject` does it
 * (test/support/source-map-app.ts: the registration line that fills both the own SDK's and Sentry's debug id
 * registries), its maps stored as an upload stores them, the service reading them from the run's S3 store. Sentry's
 * SDK reads the ids into the event's `debug_meta` on its own; the event's frames are stored resolved to the original
 * functions and lines, and the bug groups as one issue with what the own SDK sends of it, from either build
 * (docs/sentry-sdks.md#source-maps).
 */
let api: LocalApi;
let site: Awaited<ReturnType<typeof serveSite>>;
let build1: BuiltApp;
let build2: BuiltApp;
const pages = new Map<string, string>();
const issues = new DynamoIssueStore(testDoc(), tables.reports);
const scripts = ['/assets/app-1a2b3c4d.js', '/assets/app-5e6f7a8b.js'];
let storeMaps: (factoryId: string) => Promise<void> = async () => undefined;
/** The app bundled with @sentry/browser (its default integrations on), and where the site serves it. */
let bundled: BundledApp;
let bundledPath: string;
/** One factory every engine reports the unmapped bug into (no map stored for it). */
const unmapped = { factoryId: newFactoryId('unmapped'), key: '', engines: [] as string[] };
const WIDGET = '/assets/widget-3f9a1c2b.js';
/** An unminified widget whose bug each engine names differently when no map resolves it: V8 `Cart.total`, Gecko and WebKit `total`. */
const WIDGET_CODE = `class Cart {
  constructor(items) { this.items = items; }
  total() { return this.items.reduce(function (sum, item) { return sum + item.price; }, 0); }
}
var shop = { render: function renderCart() { return new Cart().total(); } };
`;

beforeAll(async () => {
  const sentry = sentryBrowserBundle();
  bundled = sentryBundledApp();
  bundledPath = bundledAppPath(bundled);
  const [{ script }, builds] = await Promise.all([buildSdk(), buildBoth()]);
  // buildBoth stops esbuild's service; the Sentry bundle above was built before it.
  await stopEsbuild();
  [build1, build2] = builds;
  const uploads = testMapStore();
  storeMaps = async (factoryId) => {
    for (const build of builds) {
      const body = Buffer.from(build.map);
      await uploads.store(factoryId, { kind: 'debugId', debugId: build.debugId }, body, { sha256: sha256Hex(body), bytes: body.byteLength });
    }
    const body = Buffer.from(bundled.map);
    await uploads.store(factoryId, { kind: 'debugId', debugId: bundled.debugId }, body, { sha256: sha256Hex(body), bytes: body.byteLength });
  };
  api = await startLocalHost(realIngestDependencies({ sourceMaps: mapReaderFromEnv(), leaseMs: 0 }));
  site = await serveSite(
    {
      '/sentry.min.js': sentry,
      '/contacts-ingest.min.js': script,
      [scripts[0]!]: build1.code,
      [scripts[1]!]: build2.code,
      [bundledPath]: bundled.code,
      [WIDGET]: WIDGET_CODE,
    },
    (path) => pages.get(path) ?? '',
  );
  unmapped.key = (await issuePublishableKey(unmapped.factoryId, [site.origin])).key;
}, 180_000);

afterAll(async () => {
  site?.close();
  await api?.close();
});

/**
 * The shop's page with both SDKs started on one key: Sentry's with the key's DSN, the own one with the key.
 * `report(sdk)` calls the app's renderBadge from a timer and hands the error to that SDK, so both SDKs see the same
 * stack; it resolves once that SDK has sent it.
 */
const shopPage = (dsn: string, key: string) => `<!doctype html><html><head><meta charset="utf-8"><title>shop</title>
<script src="/sentry.min.js"></script>
<script src="/contacts-ingest.min.js"></script>
<script>
  Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'web@2', defaultIntegrations: false });
  ContactsIngest.init({ key: ${JSON.stringify(key)}, baseUrl: ${JSON.stringify(api.baseUrl)}, release: 'web@2', flushDelayMs: 50 });
  function checkout(hand) { try { renderBadge(); } catch (e) { hand(e); } }
  window.loadApp = function (src) {
    return new Promise(function (done) { var s = document.createElement('script'); s.src = src; s.onload = done; document.head.appendChild(s); });
  };
  window.report = function (sdk) {
    return new Promise(function (done) {
      setTimeout(function () {
        if (sdk === 'sentry') { checkout(function (e) { Sentry.captureException(e); }); Sentry.flush(10000).then(done); }
        else { checkout(function (e) { ContactsIngest.captureException(e); }); ContactsIngest.flush(10000).then(done); }
      });
    });
  };
</script>
</head><body><p>A customer's shop.</p></body></html>`;

describe.each(engineCases())('in $engine', ({ engine: name, skip }) => {
  const engine = engineOfBlock(name);

  engineTest(
    "@sentry/browser's error from an injected, minified app is stored with its original frames and groups with the own SDK's report of the same bug, from either build",
    skip,
    async () => {
      const factoryId = newFactoryId('sentrymaps');
      const { key, keyId } = await issuePublishableKey(factoryId, [site.origin]);
      await storeMaps(factoryId);
      pages.set(`/${name}/shop`, shopPage(dsnFor(api.baseUrl, key, keyId), key));
      const page = await engine().newTab();
      // Build 1 reported by both SDKs, then build 2 (the minifier named its functions differently) by Sentry's.
      await page.goto(`${site.origin}/${name}/shop`);
      await page.evaluate(`loadApp(${JSON.stringify(scripts[0])})`);
      await page.evaluate("report('sentry')");
      await page.evaluate("report('own')");
      await page.goto(`${site.origin}/${name}/shop?build=2`);
      await page.evaluate(`loadApp(${JSON.stringify(scripts[1])})`);
      await page.evaluate("report('sentry')");
      const events = await storedWhen(factoryId, 'the three reports', (found) => found.length >= 3);
      expect(events).toHaveLength(3);

      const fromSentry = events.filter((event) => event.sdkFrames !== undefined);
      expect(fromSentry).toHaveLength(2);
      for (const event of fromSentry) {
        // What Sentry's SDK sent in debug_meta: the script's URL as this browser loaded it, and its build's id.
        const entries = Object.entries(event.debugIds ?? {});
        expect(entries).toHaveLength(1);
        const [url, debugId] = entries[0]!;
        const index = scripts.findIndex((script) => url === `${site.origin}${script}`);
        expect(debugId).toBe([build1, build2][index]?.debugId);
        const [top, caller] = event.frames ?? [];
        expect(top?.original).toMatchObject({
          source: expect.stringMatching(/src\/cart\.js$/),
          line: 5,
          fn: 'cartItems',
          contextLine: 'return session.cart.items;',
        });
        expect(caller?.original).toMatchObject({ source: expect.stringMatching(/src\/cart\.js$/), line: 9, fn: 'countItems' });
      }
      expect(new Set(fromSentry.map((event) => Object.values(event.debugIds ?? {})[0]))).toEqual(new Set([build1.debugId, build2.debugId]));

      const listed = await until('the tally to count all three', async () => {
        const found = await issues.listIssues(factoryId, { limit: 10, nowMs: Date.now() });
        return found.reduce((sum, issue) => sum + issue.count, 0) >= 3 ? found : undefined;
      });
      expect(listed.map((issue) => issue.count)).toEqual([3]);
    },
    120_000,
  );

  engineTest(
    "@sentry/browser bundled into the app with its default integrations, and the own SDK on a page of the same build: one bug, one issue (Sentry's timer wrapper, resolved into node_modules/@sentry, never groups)",
    skip,
    async () => {
      const factoryId = newFactoryId('sentrydefaults');
      const { key, keyId } = await issuePublishableKey(factoryId, [site.origin]);
      await storeMaps(factoryId);
      const load = `<script src="${bundledPath}"></script>`;
      pages.set(
        `/${name}/sentry-app`,
        `<!doctype html><html><head><meta charset="utf-8">${load}<script>shop.startSentry(${JSON.stringify(dsnFor(api.baseUrl, key, keyId))});</script></head><body></body></html>`,
      );
      pages.set(
        `/${name}/own-app`,
        `<!doctype html><html><head><meta charset="utf-8"><script src="/contacts-ingest.min.js"></script><script>ContactsIngest.init({ key: ${JSON.stringify(key)}, baseUrl: ${JSON.stringify(api.baseUrl)}, release: 'web@3', flushDelayMs: 50 });</script>${load}</head><body></body></html>`,
      );
      const page = await engine().newTab();
      await page.goto(`${site.origin}/${name}/sentry-app`);
      await page.evaluate('new Promise(function (done) { shop.checkout(); setTimeout(function () { shop.flushSentry().then(done); }, 50); })');
      await page.goto(`${site.origin}/${name}/own-app`);
      await page.evaluate('new Promise(function (done) { shop.checkout(); setTimeout(function () { ContactsIngest.flush(10000).then(done); }, 50); })');
      const events = await storedWhen(factoryId, 'both reports', (found) => found.length >= 2);
      const fromSentry = events.find((event) => event.sdkFrames !== undefined);
      expect(fromSentry).toBeDefined();
      // The scenario is real: Sentry's wrapper is on its stack, resolved through the app's map into its package.
      expect(fromSentry?.frames.some((frame: Record<string, any>) => /node_modules\/@sentry\//.test(frame.original?.source ?? ''))).toBe(true);
      const listed = await until('the tally to count both', async () => {
        const found = await issues.listIssues(factoryId, { limit: 10, nowMs: Date.now() });
        return found.reduce((sum, issue) => sum + issue.count, 0) >= 2 ? found : undefined;
      });
      expect(listed.map((issue) => issue.count)).toEqual([2]);
      expect(listed[0]?.fingerprint).toEqual([
        'resolved:2',
        'error',
        'TypeError',
        'return session.cart.items;@src/cart.js',
        'const items = cartItems(session);@src/cart.js',
        'countItems({});@src/main.js',
      ]);
    },
    120_000,
  );

  engineTest(
    'the unmapped bug reported from this engine into the factory every engine shares',
    skip,
    async () => {
      pages.set(
        `/${name}/widget`,
        `<!doctype html><html><head><meta charset="utf-8"><script src="/contacts-ingest.min.js"></script><script>ContactsIngest.init({ key: ${JSON.stringify(unmapped.key)}, baseUrl: ${JSON.stringify(api.baseUrl)}, flushDelayMs: 50 });</script><script src="${WIDGET}"></script></head><body></body></html>`,
      );
      const page = await engine().newTab();
      await page.goto(`${site.origin}/${name}/widget`);
      await page.evaluate('new Promise(function (done) { setTimeout(shop.render); setTimeout(function () { ContactsIngest.flush(10000).then(done); }, 50); })');
      unmapped.engines.push(name);
      await storedWhen(unmapped.factoryId, `${name}'s report`, (found) => found.length >= unmapped.engines.length);
    },
    60_000,
  );
});

test('the same unmapped bug from every engine (Chromium as V8 names it, Firefox and WebKit as theirs) is one issue', async () => {
  expect(unmapped.engines.length).toBeGreaterThan(0);
  const stacks = (await storedWhen(unmapped.factoryId, "every engine's report", (found) => found.length >= unmapped.engines.length)).map(
    (event) => event.exception?.stack,
  );
  if (unmapped.engines.includes('chromium')) expect(stacks.join('\n')).toContain('at Cart.total');
  const listed = await until("the tally to count every engine's report", async () => {
    const found = await issues.listIssues(unmapped.factoryId, { limit: 10, nowMs: Date.now() });
    return found.reduce((sum, issue) => sum + issue.count, 0) >= unmapped.engines.length ? found : undefined;
  });
  expect(listed.map((issue) => [issue.count, issue.fingerprint])).toEqual([
    [unmapped.engines.length, ['error', 'TypeError', 'total@/assets/widget.js', 'renderCart@/assets/widget.js']],
  ]);
});
