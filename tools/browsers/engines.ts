import { spawn, type ChildProcess } from 'node:child_process';
import { chromium } from 'playwright-core';
import puppeteer, { type Browser } from 'puppeteer-core';
import { freePort } from '../../local/harness/ports';
import { CHROMIUM, FIREFOX, WEBKIT_DRIVER, XVFB } from './programs';

/**
 * The three browser engines a site's visitors use, each from Debian's
 * packages, behind one small interface so that a browser test (or a benchmark)
 * runs the same steps in each (docs/development.md#browser-engines):
 * - Chromium: /usr/bin/chromium, headless, through playwright-core;
 * - Firefox ESR: /usr/bin/firefox-esr, headless, over WebDriver BiDi through
 *   puppeteer-core (playwright-core drives only its own patched Firefox);
 * - WebKitGTK (Safari's engine): WebKitWebDriver, classic W3C WebDriver,
 *   driving its MiniBrowser in an Xvfb display of its own (it has no
 *   headless switch), through the few commands below.
 * What a test observes goes through the page itself (evaluate) or through
 * servers it runs, never through one engine's own events.
 */
export type EngineName = 'chromium' | 'firefox' | 'webkit';
export const ENGINES: readonly EngineName[] = ['chromium', 'firefox', 'webkit'];

/** One tab of an engine. */
export interface Tab {
  goto(url: string): Promise<void>;
  /** Evaluates a script in the page (awaiting a promise it ends with): its JSON value. */
  evaluate<T = unknown>(script: string): Promise<T>;
  url(): Promise<string>;
  /** Closes the tab as a visitor does (the page's pagehide runs); resolves once the engine took the order. */
  close(): Promise<void>;
}

export interface Engine {
  readonly name: EngineName;
  /** The engine's own version string. */
  readonly version: string;
  newTab(): Promise<Tab>;
  close(): Promise<void>;
}

/**
 * The engines a run tests in: all three, or those BROWSER_ENGINES lists
 * (comma-separated), for a quicker run while working on one.
 */
export function enginesUnderTest(env: NodeJS.ProcessEnv = process.env): EngineName[] {
  const listed = env.BROWSER_ENGINES?.split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!listed || listed.length === 0) return [...ENGINES];
  const unknown = listed.filter((name) => !ENGINES.includes(name as EngineName));
  if (unknown.length > 0) throw new Error(`BROWSER_ENGINES names ${unknown.join(', ')}; known: ${ENGINES.join(', ')}`);
  return listed as EngineName[];
}

export function launchEngine(name: EngineName): Promise<Engine> {
  return { chromium: launchChromium, firefox: launchFirefox, webkit: launchWebKit }[name]();
}

const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

async function launchChromium(): Promise<Engine> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
  return {
    name: 'chromium',
    version: browser.version(),
    async newTab() {
      // A browser context of its own (nothing shared with other tabs), kept until the engine closes. A page made by
      // browser.newPage() is closed by disposing its context, which cancels the close-time requests (sendBeacon,
      // keepalive fetch) the network service has not sent yet: a race a loaded machine loses, and no visitor's
      // closed tab does that (docs/development.md#a-closed-tab-in-chromium).
      const page = await (await browser.newContext()).newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: (script) => page.evaluate(script),
        url: async () => page.url(),
        // Closed as a visitor closes it (CDP's Page.close: beforeunload, then pagehide); without runBeforeUnload
        // Playwright tears the target down without the page's pagehide.
        close: () => page.close({ runBeforeUnload: true }),
      };
    },
    close: () => browser.close(),
  };
}

/** The part of puppeteer's WebDriver BiDi browser that sends a raw command (not in its public types). */
interface BidiSession {
  connection: { send(method: string, params: object): Promise<unknown> };
}

/** Firefox ESR under puppeteer as the harness drives it (tools/bench/firefox-close-groups.ts needs the browser itself). */
export async function launchFirefoxBrowser(): Promise<Browser> {
  // No network events to the driver: the tests observe requests through their own servers, and each request
  // cost three BiDi events and a body collector.
  const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, networkEnabled: false });
  // Nor the page's log: every uncaught error (10,000 in sdk/noise's loop) was sent over BiDi to a driver that
  // reads nothing of it (what a test observes goes through the page).
  await (browser as unknown as BidiSession).connection.send('session.unsubscribe', { events: ['log.entryAdded'] });
  return browser;
}

async function launchFirefox(): Promise<Engine> {
  const browser = await launchFirefoxBrowser();
  const version = await browser.version();
  return {
    name: 'firefox',
    version,
    async newTab() {
      const page = await browser.newPage();
      return {
        goto: async (url) => void (await page.goto(url)),
        evaluate: async <T>(script: string) => (await page.evaluate(script)) as T,
        url: async () => page.url(),
        close: () => page.close({ runBeforeUnload: true }),
      };
    },
    close: () => browser.close(),
  };
}

/** A process and its children, stopped together (the driver starts the MiniBrowser and its web processes). */
function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    child.kill('SIGTERM');
  }
  return exited;
}

/** Xvfb on a display it picks itself (-displayfd): the display's number. */
async function startXvfb(): Promise<{ display: string; child: ChildProcess }> {
  const child = spawn(XVFB, ['-displayfd', '3', '-nolisten', 'tcp', '-screen', '0', '1280x900x24'], {
    stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const display = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdio[3]?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`Xvfb exited (${code}) before it opened a display: ${stderr.trim()}`)));
  });
  return { display: `:${display}`, child };
}

/** The commands of W3C WebDriver (classic) that the tests use, to one session. */
function webDriver(base: string) {
  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const res = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await res.json()) as { value: T & { error?: string; message?: string } };
    if (!res.ok) throw new Error(`WebDriver ${method} ${path}: ${answer.value?.error}: ${answer.value?.message}`);
    return answer.value;
  }
  return call;
}

/** Evaluates the script given as its argument, in the page's global scope, and hands back its value or its error. */
const EVALUATE = `const done = arguments[arguments.length - 1];
Promise.resolve().then(() => (0, eval)(arguments[0])).then(
  (value) => done({ value: value === undefined ? null : value }),
  (error) => done({ error: String((error && error.stack) || error) }),
);`;

async function launchWebKit(): Promise<Engine> {
  const xvfb = await startXvfb();
  const port = await freePort();
  const driver = spawn(WEBKIT_DRIVER, [`--port=${port}`], { env: { ...process.env, DISPLAY: xvfb.display }, stdio: 'ignore', detached: true });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    const ready = await fetch(`${base}/status`).then(
      (res) => res.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline || driver.exitCode !== null) {
      await Promise.all([stopGroup(driver), stopGroup(xvfb.child)]);
      throw new Error(`${WEBKIT_DRIVER} did not answer on port ${port} within 30 s`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const call = webDriver(base);
  let session: { sessionId: string; capabilities: { browserVersion: string } };
  let first: string;
  try {
    // No capabilities: the driver starts the MiniBrowser of the same WebKitGTK package.
    session = await call('POST', '/session', { capabilities: {} });
    await call('POST', `/session/${session.sessionId}/timeouts`, { script: 120_000, pageLoad: 60_000 });
    // The first window stays open and blank: new tabs are opened from it, and closing the others never ends the session.
    first = await call<string>('GET', `/session/${session.sessionId}/window`);
  } catch (error) {
    await Promise.all([stopGroup(driver), stopGroup(xvfb.child)]);
    throw error;
  }
  const at = `/session/${session.sessionId}`;
  // One window is current at a time: a tab's commands switch to it, one tab at a time.
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(step: () => Promise<T>): Promise<T> => {
    const next = turn.then(step, step);
    turn = next.catch(() => undefined);
    return next;
  };
  return {
    name: 'webkit',
    version: `WebKitGTK ${session.capabilities.browserVersion}`,
    async newTab() {
      const { handle } = await inTurn(async () => {
        await call('POST', `${at}/window`, { handle: first });
        return call<{ handle: string }>('POST', `${at}/window/new`, { type: 'tab' });
      });
      const on = <T>(step: () => Promise<T>) =>
        inTurn(async () => {
          await call('POST', `${at}/window`, { handle });
          return step();
        });
      return {
        goto: async (url) => void (await on(() => call('POST', `${at}/url`, { url }))),
        evaluate: async <T>(script: string): Promise<T> => {
          const result = await on(() => call<{ value?: T; error?: string }>('POST', `${at}/execute/async`, { script: EVALUATE, args: [script] }));
          if (result.error !== undefined) throw new Error(`in the page: ${result.error}`);
          return result.value as T;
        },
        url: () => on(() => call<string>('GET', `${at}/url`)),
        close: () => on(async () => void (await call('DELETE', `${at}/window`))),
      };
    },
    async close() {
      await call('DELETE', at).catch(() => undefined);
      await Promise.all([stopGroup(driver), stopGroup(xvfb.child)]);
    },
  };
}
