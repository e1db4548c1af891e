import { controlDependencies } from '../../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { Tab } from '../../../tools/browsers/engines';
import { engineCases, engineOfBlock, engineTest, sdkPage, serveSite } from '../../support/browser-sdk';
import { CONTROL_CALLER } from '../../support/control-memory';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../../support/local-api';
import { buildSdk } from '../../support/sdk-build';
import { tallied } from '../../support/tally';
import { until } from '../../support/until';

/**
 * The browser SDK's sessions (docs/release-health.md) in Chromium, Firefox ESR and WebKitGTK, against the local host
 * in this process on DynamoDB Local and the run's tally: pages that load, navigate to another page, have an
 * unhandled error and capture a handled one. The crash-free session rate `reports release` (the control room's
 * `releases.show`) gives is exact against what the pages did. Three page loads per engine.
 */
let api: LocalApi;
let site: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });

beforeAll(async () => {
  const [{ script }, host] = await Promise.all([buildSdk(), startLocalHost(realIngestDependencies())]);
  api = host;
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '<!doctype html><p>no such page</p>');
}, 120_000);
afterAll(async () => {
  site?.close();
  await api?.close();
});

/** The page's own script: an unhandled error on demand, and a flag the page's own listener sets once the SDK's (added first) has seen it. */
const PAGE_SCRIPT = `
  addEventListener('error', function () { window.crashed = true; });
  window.crash = function () { setTimeout(function () { null.checkout(); }, 0); return true; };`;

describe.each(engineCases())('in $engine', ({ engine: name, skip }) => {
  const engine = engineOfBlock(name);

  engineTest(
    'a page load, a navigation to another page that crashes, and a page with a handled error: 3 sessions, 1 crashed, crash-free 2/3',
    skip,
    async () => {
      const factoryId = newFactoryId('sdksess');
      const { key } = await issuePublishableKey(factoryId, [site.origin]);
      const options = { key, baseUrl: api.baseUrl, release: 'shop@4.2.0', flushDelayMs: 50 };
      for (const path of ['/shop', '/shop/cart']) pages.set(`/${name}${path}`, sdkPage(options, '{}', PAGE_SCRIPT));
      /** Waits for what the page sent (its session's updates, its events) to be answered. */
      const flushed = async (tab: Tab) => expect(await tab.evaluate<boolean>('ContactsIngest.flush(10000)')).toBe(true);

      const shopper = await engine().newTab();
      await shopper.goto(`${site.origin}/${name}/shop`);
      await flushed(shopper);
      // A new page load: a session of its own, which crashes.
      await shopper.goto(`${site.origin}/${name}/shop/cart`);
      expect(await shopper.evaluate<boolean>('crash()')).toBe(true);
      await until('the page saw its error', () => shopper.evaluate<boolean>('window.crashed === true'));
      await flushed(shopper);

      const browser = await engine().newTab();
      await browser.goto(`${site.origin}/${name}/shop`);
      expect(await browser.evaluate<string>("ContactsIngest.captureException(new Error('coupon expired'))")).not.toBe('');
      await flushed(browser);
      await Promise.all([shopper.close(), browser.close()]);

      await tallied();
      const shown = await handleControlRequest(control, { operation: 'releases.show', factoryId, release: 'shop@4.2.0' }, { principal: CONTROL_CALLER });
      expect(shown).toMatchObject({
        status: 200,
        body: { release: 'shop@4.2.0', environment: 'production', sessions: 3, errored: 2, crashed: 1, users: 1, crashedUsers: 1 },
      });
      expect(shown.body.crashFreeSessions).toBeCloseTo(2 / 3, 10);
      // One browser on one address: one visitor, the user of all three sessions, whose one crash makes the users' rate 0.
      expect(shown.body.crashFreeUsers).toBe(0);
    },
    120_000,
  );
});
