import { buildSync } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from './source-map-app';

/**
 * A customer's app bundled with the unmodified @sentry/browser, as a team on Sentry builds it: one minified script
 * and its map, injected as `sourcemaps inject` does (both registries filled). `shop.startSentry(dsn)` starts Sentry
 * with its default integrations (its browserApiErrors integration wraps setTimeout, so an error thrown in a timer
 * has Sentry's wrapper below the app's frames, resolved through this very map into node_modules/@sentry/…);
 * `shop.checkout()` throws the bug from a timer. A page that never starts Sentry reports with the own SDK instead.
 * The caller stops esbuild's service when its builds are done.
 */

const SOURCES: Record<string, string> = {
  'src/cart.js': `export function cartItems(session) {
  return session.cart.items;
}

export function countItems(session) {
  const items = cartItems(session);
  return items.length;
}
`,
  'src/main.js': `import * as Sentry from '@sentry/browser';
import { countItems } from './cart.js';

export function startSentry(dsn) {
  Sentry.init({ dsn, release: 'web@3' });
}

export function flushSentry() {
  return Sentry.flush(10000);
}

export function checkout() {
  setTimeout(function onCheckout() {
    countItems({});
  });
}
`,
};

export interface BundledApp {
  code: string;
  map: string;
  debugId: string;
}

export function sentryBundledApp(): BundledApp {
  const dir = mkdtempSync(join(tmpdir(), 'sentry-app-'));
  try {
    mkdirSync(join(dir, 'src'));
    for (const [name, text] of Object.entries(SOURCES)) writeFileSync(join(dir, name), text);
    const result = buildSync({
      absWorkingDir: dir,
      entryPoints: ['src/main.js'],
      bundle: true,
      minify: true,
      format: 'iife',
      globalName: 'shop',
      sourcemap: 'external',
      sourcesContent: true,
      // @sentry/browser from the repository's node_modules, as the customer's own would be.
      nodePaths: [join(__dirname, '..', '..', 'node_modules')],
      target: 'es2020',
      outfile: 'dist/app.js',
      write: false,
      logLevel: 'silent',
    });
    const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
    const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'));
    if (!js || !map) throw new Error('esbuild wrote no script or no map');
    return inject(js.text, map.text);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The script's hashed name, as a bundler writes it. */
export const bundledAppPath = (app: BundledApp): string => `/assets/app-${createHash('sha256').update(app.code).digest('hex').slice(0, 8)}.js`;
