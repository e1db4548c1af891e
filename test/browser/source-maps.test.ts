import { DynamoIssueStore } from '../../lambda/store/reports/dynamo-issue-store';
import { mapReaderFromEnv } from '../../lambda/store/source-maps/s3-map-reader';
import { buildSdk, engineCases, engineOfBlock, engineTest, openSdkTab, serveSite, storedWhen, until } from '../support/browser-sdk';
import { realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { buildBoth, type BuiltApp } from '../support/source-map-app';
import { sha256Hex, testMapStore } from '../support/sourcemaps';

/**
 * The same bug built minified twice (the second build's minifier names its functions differently), injected, and
 * thrown in a real browser with the real SDK against the local ingest API (as `npm start` serves it, on the run's
 * DynamoDB Local and its tally) reading the run's S3 store (the embedded one, through the functions' own signed
 * GET), which holds both builds' maps as an upload stores them: the SDK sends the scripts' debug ids,
 * the frames are stored resolved, and the two builds' errors are one issue with an exact count.
 */
let api: LocalApi;
let site: Awaited<ReturnType<typeof serveSite>>;
let build1: BuiltApp;
let build2: BuiltApp;
const pages = new Map<string, string>();
const issues = new DynamoIssueStore(testDoc(), tables.reports);

beforeAll(async () => {
  const [{ script }, builds] = await Promise.all([buildSdk(), buildBoth()]);
  [build1, build2] = builds;
  const uploads = testMapStore();
  // Each factory the test opens gets both builds' maps, stored under its own prefix as the upload API stores them (below).
  mapsOf = async (factoryId) => {
    for (const build of builds) {
      const body = Buffer.from(build.map);
      await uploads.store(factoryId, { kind: 'debugId', debugId: build.debugId }, body, { sha256: sha256Hex(body), bytes: body.byteLength });
    }
  };
  api = await startLocalHost(realIngestDependencies({ sourceMaps: mapReaderFromEnv(), leaseMs: 0 }));
  site = await serveSite({ '/contacts-ingest.min.js': script, '/assets/app-1a2b3c4d.js': build1.code, '/assets/app-5e6f7a8b.js': build2.code }, (path) => pages.get(path) ?? '');
}, 180_000);

let mapsOf: (factoryId: string) => Promise<void> = async () => undefined;

afterAll(async () => {
  site?.close();
  await api?.close();
});

describe.each(engineCases())('in $engine', ({ engine: name, skip }) => {
  const engine = engineOfBlock(name);

  engineTest('the same bug thrown from two builds whose minified names differ is one issue, its frames resolved to the original functions and source lines', skip, async () => {
    const scripts = ['/assets/app-1a2b3c4d.js', '/assets/app-5e6f7a8b.js'];
    const { factoryId, page } = await openSdkTab({ engine: engine(), engineName: name, pages, site, baseUrl: api.baseUrl, factoryPrefix: 'maps', path: '/shop', options: { release: 'web@2' }, body: '' });
    await mapsOf(factoryId);
    // Each build on a page of its own, as two deploys would serve them; the error is uncaught, as in production.
    for (const [index, script] of scripts.entries()) {
      if (index > 0) await page.goto(`${site.origin}/${name}/shop?build=2`);
      await page.evaluate(`new Promise(function (done) { var s = document.createElement('script'); s.src = ${JSON.stringify(script)}; s.onload = done; document.head.appendChild(s); })`);
      await page.evaluate('setTimeout(function () { renderBadge(); })');
      await storedWhen(factoryId, `the error of build ${index + 1}`, (events) => events.length >= index + 1);
    }
    const events = await storedWhen(factoryId, 'both errors', (found) => found.length >= 2);
    for (const event of events) {
      expect(Object.values(event.debugIds ?? {})).toHaveLength(1);
      const [top] = event.frames ?? [];
      expect(top?.original).toMatchObject({ source: expect.stringMatching(/src\/cart\.js$/), line: 5, contextLine: 'return session.cart.items;' });
    }
    expect(new Set(events.map((event) => Object.values(event.debugIds ?? {})[0]))).toEqual(new Set([build1.debugId, build2.debugId]));
    const listed = await until('the tally to count both', async () => {
      const found = await issues.listIssues(factoryId, { limit: 10, nowMs: Date.now() });
      return found.reduce((sum, issue) => sum + issue.count, 0) >= 2 ? found : undefined;
    });
    expect(listed.map((issue) => issue.count)).toEqual([2]);
  }, 120_000);
});
