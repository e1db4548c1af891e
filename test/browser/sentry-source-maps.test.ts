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

beforeAll(async () => {
  const sentry = sentryBrowserBundle();
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
  };
  api = await startLocalHost(realIngestDependencies({ sourceMaps: mapReaderFromEnv(), leaseMs: 0 }));
  site = await serveSite(
    { '/sentry.min.js': sentry, '/contacts-ingest.min.js': script, [scripts[0]!]: build1.code, [scripts[1]!]: build2.code },
    (path) => pages.get(path) ?? '',
  );
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
});
