import { stop as stopEsbuild } from 'esbuild';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { launchEngine, type Engine } from '../../tools/browsers/engines';
import { serveSite } from '../support/browser-sdk';
import { storedReports } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';
import { issuesOf } from './sentry-issues';
import { sentryBrowserBundle } from '../support/sentry-browser-bundle';

/**
 * The unmodified official @sentry/browser in headless Chromium, on a
 * customer's site, reporting through the DSN keys create prints for a
 * browser-only key bound to the site. The npm package ships no script
 * bundle, so the test builds one from it with the repo's esbuild.
 */
let api: LocalApi;
let engine: Engine;
let site: Awaited<ReturnType<typeof serveSite>>;
const pages = new Map<string, string>();

beforeAll(async () => {
  const bundle = sentryBrowserBundle();
  // esbuild leaves its service process running otherwise; the run's teardown counts it as left over.
  await stopEsbuild();
  site = await serveSite({ '/sentry.min.js': bundle }, (path) => pages.get(path) ?? '<!doctype html><title>none</title>');
  api = await startLocalHost(realIngestDependencies());
  engine = await launchEngine('chromium');
}, 90_000);
afterAll(async () => {
  await engine?.close();
  site?.close();
  await api?.close();
});

const page = (dsn: string) => `<!doctype html><title>shop</title><script src="/sentry.min.js"></script><script>
  Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'shop@2.0.0', environment: 'test', defaultIntegrations: false });
  function renderCart(n) { throw new TypeError('cart ' + n + ' has no items'); }
  function applyCoupon(code) { throw new RangeError('coupon ' + code + ' expired'); }
  window.report = function () {
    [1, 2, 3].forEach(function (n) { try { renderCart(n); } catch (e) { Sentry.captureException(e); } });
    ['A1', 'B2'].forEach(function (c) { try { applyCoupon(c); } catch (e) { Sentry.captureException(e); } });
    return Sentry.flush(10000);
  };
</script>`;

test('the unmodified @sentry/browser in Chromium reports through the printed DSN: each exception is one issue with an exact count and its original frames', async () => {
  const factoryId = newFactoryId('sentrychrome');
  const { key, keyId } = await issuePublishableKey(factoryId, [site.origin]);
  pages.set('/shop', page(dsnFor(api.baseUrl, key, keyId)));
  const tab = await engine.newTab();
  await tab.goto(`${site.origin}/shop`);
  expect(await tab.evaluate<boolean>('window.report()')).toBe(true);
  const issues = await issuesOf(factoryId);
  expect(issues.map((issue) => [issue.title.replace(/cart \d|coupon \w\d/, 'X'), issue.count]).sort()).toEqual([
    ['RangeError: X expired', 2],
    ['TypeError: X has no items', 3],
  ]);
  const events = await storedReports(factoryId);
  const cart = events.find((event) => event.exception?.type === 'TypeError')!;
  expect(cart.sdkFrames[0]).toMatchObject({ function: 'renderCart', file: `${site.origin}/shop`, inApp: true, line: expect.any(Number) });
  expect(cart.origin).toBe(site.origin);
}, 90_000);
