import { stop as stopEsbuild } from 'esbuild';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { launchEngine, type Engine } from '../../tools/browsers/engines';
import { serveSite } from '../support/browser-sdk';
import { CONTROL_CALLER } from '../support/control-memory';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { sentryBrowserBundle } from '../support/sentry-browser-bundle';
import { tallied } from '../support/tally';
import { until } from '../support/until';

/**
 * Release health from the unmodified @sentry/browser with its default integrations and a release set, in headless
 * Chromium (docs/release-health.md): a session per page load (11.x's default lifecycle: a navigation in the page
 * starts none), marked `unhandled` (counted as crashed) on an unhandled error. The
 * crash-free rate is exact against what the pages did.
 */
let api: LocalApi;
let engine: Engine;
let site: Awaited<ReturnType<typeof serveSite>>;
let dsn = '';
const control = controlDependencies(testDoc(), tables, 'Test Platform', { keys: tables.keys, reports: tables.reports });

const page = () => `<!doctype html><title>shop</title><script src="/sentry.min.js"></script><script>
  Sentry.init({ dsn: ${JSON.stringify(dsn)}, release: 'shop@3.1.0' });
  window.navigate = function () { history.pushState({}, '', '/shop/cart'); return true; };
  window.crash = function () { setTimeout(function () { null.checkout(); }, 0); return true; };
</script>`;

beforeAll(async () => {
  const bundle = sentryBrowserBundle();
  await stopEsbuild();
  site = await serveSite({ '/sentry.min.js': bundle }, () => page());
  api = await startLocalHost(realIngestDependencies());
  engine = await launchEngine('chromium');
}, 90_000);
afterAll(async () => {
  await engine?.close();
  site?.close();
  await api?.close();
});

test('@sentry/browser in Chromium: three page loads are three sessions (a navigation is none: the default lifecycle is the page), the one with an unhandled error crashed', async () => {
  const factoryId = newFactoryId('browsersess');
  const { key, keyId } = await issuePublishableKey(factoryId, [site.origin]);
  dsn = dsnFor(api.baseUrl, key, keyId);
  const release = async () => {
    await tallied();
    const answer = await handleControlRequest(control, { operation: 'releases.list', factoryId }, { principal: CONTROL_CALLER });
    return (answer.body.releases as Record<string, unknown>[])[0];
  };
  const visit = async (then?: 'navigate' | 'crash') => {
    const tab = await engine.newTab();
    await tab.goto(`${site.origin}/shop`);
    if (then) expect(await tab.evaluate<boolean>(`window.${then}()`)).toBe(true);
    expect(await tab.evaluate<boolean>('Sentry.flush(10000)')).toBe(true);
    return tab;
  };
  const tabs = [await visit(), await visit('navigate'), await visit('crash')];
  // The crash's session update follows its error event: wait until it is counted, not for a time.
  await until('the crashed session counted', async () => (await release())?.crashed === 1, 60_000, 500);
  for (const tab of tabs) await tab.close();
  expect(await release()).toMatchObject({ release: 'shop@3.1.0', environment: 'production', sessions: 3, errored: 1, crashed: 1, adoption: 1 });
  expect((await release())?.crashFreeSessions).toBeCloseTo(2 / 3, 10);
}, 120_000);
