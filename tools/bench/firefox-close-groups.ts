/**
 * `npm run bench:firefox-close-groups`: whether Firefox's lost close-time beacons are the harness's doing
 * (as Chromium's were: docs/development.md#a-closed-tab-in-chromium) or Firefox's own. A plain page without
 * the SDK sends one beacon from `pagehide`; each tab is closed by the harness's own call (puppeteer's
 * `page.close({ runBeforeUnload: true })`: WebDriver BiDi's browsingContext.close, which Firefox's remote
 * agent runs as `gBrowser.removeTab`, the path of a visitor's Ctrl+W), in three ways of opening it:
 * - alone: a new tab, the only one of the site (what `tools/browsers/engines.ts` does);
 * - beside a sibling: another tab of the same site stays open (another browsing context group);
 * - opened by a sibling: `window.open` from that tab (the same browsing context group, which outlives the tab).
 * Only how the tab was opened differs; the close is the same call. A collector counts the beacons that began
 * to arrive (a request's headers are enough) within 5 s of the last close.
 */
import { createServer } from 'node:http';
import type { Browser, Page } from 'puppeteer-core';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { launchFirefoxBrowser } from '../browsers/engines';

const USAGE = `usage: npm run bench:firefox-close-groups [-- --tabs <N>]

Closes N tabs (default 20) per way of opening them in Firefox ESR, each
closed by the test harness's own call, and prints how many of their
pagehide beacons arrived: a tab alone, a tab beside another tab of the
site, and a tab opened by that other tab (window.open).`;

type Way = 'alone' | 'beside a sibling' | 'opened by a sibling';
const WAYS: Way[] = ['alone', 'beside a sibling', 'opened by a sibling'];

async function openTab(browser: Browser, way: Way, sibling: Page | undefined, url: string): Promise<Page> {
  if (way !== 'opened by a sibling' || !sibling) {
    const page = await browser.newPage();
    await page.goto(url);
    return page;
  }
  const target = browser.waitForTarget((candidate) => candidate.url() === url);
  await sibling.evaluate(`window.open(${JSON.stringify(url)}, '_blank'); null`);
  const page = await (await target).page();
  if (!page) throw new Error(`no page for ${url}`);
  await page.waitForFunction('document.readyState === "complete"');
  return page;
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { tabs: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const tabs = positiveIntArg('--tabs', values.tabs as string | undefined, 500) ?? 20;
  const arrived = new Set<string>();
  const server = createServer((req, res) => {
    if (req.method === 'POST') {
      arrived.add(String(req.url));
      req.resume();
      res.writeHead(202).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<script>addEventListener('pagehide', function () { navigator.sendBeacon('/beacon' + location.pathname, 'x'.repeat(450)); });</script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const browser = await launchFirefoxBrowser();
  try {
    console.log(`Firefox ${await browser.version()}, ${tabs} tabs per way, a 450-byte pagehide beacon each`);
    for (const way of WAYS) {
      const sibling = way === 'alone' ? undefined : await openTab(browser, 'alone', undefined, `${origin}/sibling/${way}`);
      const path = (n: number) => `/${way.replace(/ /g, '-')}/${n}`;
      for (let n = 1; n <= tabs; n += 1) {
        const page = await openTab(browser, way, sibling, `${origin}${path(n)}`);
        await page.close({ runBeforeUnload: true });
      }
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const count = Array.from({ length: tabs }, (_, i) => `/beacon${path(i + 1)}`).filter((url) => arrived.has(url)).length;
      console.log(`${way.padEnd(20)} ${count} of ${tabs}`);
      await sibling?.close();
    }
  } finally {
    await browser.close();
    server.close();
  }
});
