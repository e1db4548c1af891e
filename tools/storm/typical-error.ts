import { randomUUID } from 'node:crypto';
import type { PageError } from './minified-app';
import { sentryBrowserEvent } from './sentry-page';

/**
 * The typical lone error the cost figures are about (docs/capacity.md#the-event-item, docs/performance.md#cpu-per-event):
 * a TypeError five frames deep in a site's bundle, as V8 writes it, reported from a checkout page with a release
 * and a few tags by a desktop browser. The storm's mix, the CPU benchmark and the item-size test send it.
 */

export const TYPICAL_SITE = 'https://shop.example.com';
/** A desktop Chrome's user agent, as a visitor's browser sends it. */
export const TYPICAL_USER_AGENT = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
export const TYPICAL_PAGE = `${TYPICAL_SITE}/cart?step=2`;
export const TYPICAL_RELEASE = 'web@4.2.0';
export const TYPICAL_TAGS = { environment: 'production', locale: 'en-US', plan: 'pro' } as const;

const FUNCTIONS = ['renderCart', 'CartView', 'updateTotals', 'dispatch', 'onClick'] as const;
const COLUMNS = [1043, 20877, 5120, 88231, 1377] as const;

/** The error in the bundle at `script` (a URL of the site's; a hashed file name by default). */
export function typicalError(script = `${TYPICAL_SITE}/assets/index-4f9a2c1b.js`): PageError {
  const frames = FUNCTIONS.map((fn, i) => `    at ${fn} (${script}:${1 + i}:${COLUMNS[i]})`);
  return {
    type: 'TypeError',
    value: "Cannot read properties of undefined (reading 'price')",
    stack: `TypeError: Cannot read properties of undefined (reading 'price')\n${frames.join('\n')}`,
  };
}

/** The error as the own browser SDK reports it (one event of a request's `events`). */
export function typicalOwnEvent(
  error: PageError = typicalError(),
  eventId: string = randomUUID(),
): Record<string, unknown> & { eventId: string; message: string } {
  return {
    eventId,
    type: 'error',
    timestamp: new Date().toISOString(),
    message: `${error.type}: ${error.value}`,
    exception: { type: error.type, value: error.value, stack: error.stack },
    pageUrl: TYPICAL_PAGE,
    release: TYPICAL_RELEASE,
    tags: { ...TYPICAL_TAGS },
    ...(error.debugIds ? { debugIds: error.debugIds } : {}),
  };
}

/** The error as Sentry's browser SDK reports it: its own event, the environment as Sentry sends it and the other tags. */
export function typicalSentryEvent(error: PageError = typicalError(), eventId: string = randomUUID()): Record<string, unknown> {
  const { environment: _environment, ...tags } = TYPICAL_TAGS;
  return { ...sentryBrowserEvent(error, { eventId, pageUrl: TYPICAL_PAGE, release: TYPICAL_RELEASE, timestampS: Date.now() / 1000 }), tags };
}
