import { defaultStackParser, exceptionFromError, makeFetchTransport, SDK_VERSION } from '@sentry/browser';
import type { PageError } from './minified-app';

/**
 * A page reporting through Sentry's browser SDK (docs/sentry-sdks.md), for the
 * storm benchmark: the event built by the SDK's own exception reader and
 * stack parser, sent by the SDK's own fetch transport (its rate limits and
 * drops, unmodified) over a fetch the bench gives it. What a real page adds
 * (breadcrumbs, contexts, integrations) the service drops; it is left out.
 *
 * Sentry's SDKs never send an event again: on 429 they drop it and hold
 * back the category for the answer's X-Sentry-Rate-Limits (or Retry-After)
 * window; on a network error or another status they drop it as well.
 */

export const SENTRY_BROWSER_SDK = { name: 'sentry.javascript.browser', version: SDK_VERSION } as const;

type Transport = ReturnType<typeof makeFetchTransport>;
type Envelope = Parameters<Transport['send']>[0];
type Fetch = NonNullable<Parameters<typeof makeFetchTransport>[1]>;

/** The envelope endpoint for a DSN, as the SDKs derive it: the key, version and client in the query (no auth header from browsers). */
export function envelopeUrlOf(dsn: string, sdk: { name: string; version: string } = SENTRY_BROWSER_SDK): string {
  const match = /^(https?):\/\/(\w+)(?::\w+)?@([^/?#]+)(\/[^?#]*)?\/(\d+)\/?$/.exec(dsn);
  if (!match) throw new Error(`not a DSN: ${dsn}`);
  const [, protocol, publicKey, host, path = ''] = match;
  const projectId = match[5] as string;
  const query = new URLSearchParams({ sentry_version: '7', sentry_key: publicKey as string, sentry_client: `${sdk.name}/${sdk.version}` });
  return `${protocol}://${host}${path}/api/${projectId}/envelope/?${query.toString()}`;
}

/** An error event as the browser SDK sends it for an uncaught error: the SDK's frames (oldest first), and the page's debug ids as `debug_meta`. */
export function sentryBrowserEvent(
  error: PageError,
  options: { eventId: string; pageUrl: string; release: string; timestampS: number },
): Record<string, unknown> {
  const exception = exceptionFromError(defaultStackParser, Object.assign(new Error(error.value), { name: error.type, stack: error.stack }));
  const images = Object.entries(error.debugIds ?? {}).map(([codeFile, debugId]) => ({ type: 'sourcemap', code_file: codeFile, debug_id: debugId }));
  return {
    event_id: options.eventId.replace(/-/g, ''),
    timestamp: options.timestampS,
    platform: 'javascript',
    level: 'error',
    environment: 'production',
    release: options.release,
    exception: { values: [{ ...exception, mechanism: { type: 'auto.browser.global_handlers.onerror', handled: false } }] },
    request: { url: options.pageUrl, headers: { 'User-Agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0 Safari/537.36' } },
    sdk: { name: SENTRY_BROWSER_SDK.name, version: SENTRY_BROWSER_SDK.version },
    ...(images.length > 0 ? { debug_meta: { images } } : {}),
  };
}

/** One event in its envelope, as the SDK's client hands it to the transport. */
export function eventEnvelope(event: Record<string, unknown>, sentAt: string): Envelope {
  return [{ event_id: event.event_id as string, sent_at: sentAt, sdk: SENTRY_BROWSER_SDK }, [[{ type: 'event' }, event]]] as unknown as Envelope;
}

/** What became of one event a page's SDK reported. */
export type SentryOutcome =
  /** 2xx: the service has it. */
  | 'acknowledged'
  /** Answered 429: the SDK drops it (and holds back its next events for the window the answer gave). */
  | 'dropped-on-429'
  /** Never sent: the SDK was still holding back after an earlier 429 of the same page. */
  | 'held-back'
  /** Another status, or no answer: the SDK drops it too (a failure of the service or the network). */
  | 'failed';

export interface SentryAnswer {
  outcome: SentryOutcome;
  status?: number;
  retryAfter?: string | null;
  rateLimits?: string | null;
}

/** The outcome of one send by its answer; `undefined` answer: the transport sent nothing (held back). */
export function outcomeOf(answer: { statusCode?: number } | undefined, failed: boolean): SentryOutcome {
  if (failed) return 'failed';
  const status = answer?.statusCode;
  if (status === undefined) return 'held-back';
  if (status >= 200 && status < 300) return 'acknowledged';
  return status === 429 ? 'dropped-on-429' : 'failed';
}

/**
 * A page's SDK transport: Sentry's own fetch transport to `url`, over `fetchImpl`
 * (the bench's: its own address per visitor, the page's Origin). `send`
 * answers what became of one envelope.
 */
export function sentryPage(url: string, fetchImpl: Fetch): { send: (envelope: Envelope) => Promise<SentryAnswer> } {
  const transport = makeFetchTransport({ url, recordDroppedEvent: () => undefined }, fetchImpl);
  return {
    send: async (envelope) => {
      try {
        const answer = await transport.send(envelope);
        const outcome = outcomeOf(answer, false);
        return { outcome, status: answer.statusCode, retryAfter: answer.headers?.['retry-after'], rateLimits: answer.headers?.['x-sentry-rate-limits'] };
      } catch {
        return { outcome: 'failed' };
      }
    },
  };
}
