import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { buildMinified, inject } from './source-map-app';

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
  // @sentry/browser from the repository's node_modules, as the customer's own would be.
  const built = buildMinified(Object.entries(SOURCES), { globalName: 'shop', nodePaths: [join(__dirname, '..', '..', 'node_modules')], target: 'es2020' });
  return inject(built.code, built.map);
}

/** The script's hashed name, as a bundler writes it. */
export const bundledAppPath = (app: BundledApp): string => `/assets/app-${createHash('sha256').update(app.code).digest('hex').slice(0, 8)}.js`;
