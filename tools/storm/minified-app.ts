import { buildSync, stop } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import vm from 'node:vm';
import { runInject } from '../../browser-sdk/cli/commands';
import { debugIdsOf } from '../../browser-sdk/src/debug-ids';
import { DEBUG_ID_REGISTRY } from '../../lambda/ingest/sourcemaps/debug-id-snippet';

/**
 * The source-mapped storm's app (docs/capacity.md#the-storm-benchmark): a
 * real app with issue 41's bug (`session.cart.items` read on a missing cart),
 * built minified by the repository's esbuild twice, the second build with an
 * unrelated function added so that the minifier names the bug's functions
 * differently, then marked by `sourcemaps inject`'s own code. Each build is
 * run as a page runs it (V8, as in Chromium) to get the stack its pages send.
 */

export interface AppBuild {
  /** The built script's file in the build folder (uploaded with its map from there). */
  file: string;
  /** Where pages load it from: a hashed name, as bundlers write (the debug id ties it to its map, not the name). */
  url: string;
  debugId: string;
}

/** An error as a page's SDK reads it: its type, message and V8 stack, and the debug ids of the scripts in it. */
export interface PageError {
  type: string;
  value: string;
  stack: string;
  debugIds?: Record<string, string>;
}

/** The app's sources: the bug is in src/cart.js (the browser test's app is this one too: test/support/source-map-app.ts). */
export const BUG_APP_SOURCES: Readonly<Record<string, string>> = {
  'src/session.js': 'export const session = { user: { id: 7 } };\n',
  'src/cart.js': [
    "import { session } from './session.js';",
    '',
    "/** The visitor's cart items: throws when the session has no cart (the bug). */",
    'export function cartItems() {',
    '  return session.cart.items;',
    '}',
    '',
    'export function countItems() {',
    '  const items = cartItems();',
    '  return items.length;',
    '}',
    '',
  ].join('\n'),
  'src/main.js': [
    "import { countItems } from './cart.js';",
    '',
    'export function renderBadge() {',
    '  const count = countItems();',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the app's own source text, a template literal of its code
    '  return `(${count})`;',
    '}',
    '',
    'globalThis.renderBadge = renderBadge;',
    '',
  ].join('\n'),
};

/** What build 2 adds: a function unrelated to the bug, used first, which shifts the minifier's names. */
export const UNRELATED_FUNCTION = [
  'function formatPrice(cents, currency) {',
  '  const units = cents / 100;',
  '  return currency + units.toFixed(2) + formatPrice.suffix;',
  '}',
  "formatPrice.suffix = '';",
  'globalThis.formatPrice = formatPrice;',
  'globalThis.formatPrice(1, "$");',
  '',
].join('\n');

/** A build's sources: build 2 puts the unrelated function above main.js. */
export const sourcesOfBuild = (version: 1 | 2): [string, string][] =>
  Object.entries(BUG_APP_SOURCES).map(([name, text]) => [name, version === 2 && name === 'src/main.js' ? UNRELATED_FUNCTION + text : text]);

/** An error's stack as a page's SDK reads it: from its "TypeError: …" line, the page's frames only (not Node's). */
export function pageStackOf(error: Error, site: string): string {
  const lines = (error.stack ?? '').split('\n');
  const head = lines.findIndex((line) => line.startsWith(`${error.name}:`));
  return [lines[head], ...lines.slice(head + 1).filter((line) => line.includes(site))].join('\n');
}

/**
 * Builds both versions into `dir/dist` (each script beside its map), injects
 * debug ids as `sourcemaps inject <dir>` does, and answers the builds: the
 * folder is then ready for `sourcemaps upload`.
 */
export async function buildStormApp(dir: string, site: string): Promise<{ dist: string; builds: AppBuild[] }> {
  const dist = join(dir, 'dist');
  // Both builds from the same checkout (the same source paths in their maps), as a CI builds release after release.
  mkdirSync(join(dir, 'src'), { recursive: true });
  try {
    for (const version of [1, 2] as const) {
      for (const [name, text] of sourcesOfBuild(version)) writeFileSync(join(dir, name), text);
      buildSync({
        absWorkingDir: dir,
        entryPoints: ['src/main.js'],
        bundle: true,
        minify: true,
        format: 'iife',
        sourcemap: 'external',
        sourcesContent: true,
        outfile: join(dist, `app-${version}.js`),
        logLevel: 'silent',
      });
    }
  } finally {
    // esbuild keeps a service process after a build: none outlives the builds.
    await stop();
  }
  const injected = runInject(dist);
  const files = injected.output.files as { path: string; debugId: string }[];
  const builds = [1, 2].map((version) => {
    const file = `app-${version}.js`;
    const entry = files.find((candidate) => candidate.path.endsWith(file));
    if (!entry) throw new Error(`inject did not mark ${file}`);
    const hash = createHash('sha256')
      .update(readFileSync(join(dist, file)))
      .digest('hex')
      .slice(0, 8);
    return { file, url: `${site}/assets/app-${hash}.js`, debugId: entry.debugId };
  });
  return { dist, builds };
}

/**
 * The error the app's `code` (served at `url`) throws, run as a page on `site` runs it (V8, like Chromium), with
 * the debug ids its page's SDK reads from the registry.
 */
export function throwInPage(code: string, url: string, site: string): PageError {
  const context = vm.createContext({});
  vm.runInContext(code, context, { filename: url });
  try {
    vm.runInContext('renderBadge()', context, { filename: `${site}/inline.js` });
  } catch (error) {
    const { name, message } = error as Error;
    const pageStack = pageStackOf(error as Error, site);
    const registry = (context as Record<string, Record<string, string> | undefined>)[DEBUG_ID_REGISTRY];
    const debugIds = debugIdsOf(pageStack, [registry]);
    return { type: name, value: message, stack: pageStack, ...(debugIds ? { debugIds } : {}) };
  }
  throw new Error(`${url} did not throw`);
}

/** The error a build throws, run as a page runs it (throwInPage). */
export const throwIn = (dist: string, build: AppBuild, site: string): PageError => throwInPage(readFileSync(join(dist, build.file), 'utf8'), build.url, site);
