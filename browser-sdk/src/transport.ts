import { backoffDelay, retryAfterMs } from './backoff.js';
import { batches, byteLength, eventsBody, halves, nextBatchSize } from './batch.js';
import { tellOnce } from './console.js';
import type { Config, IngestEvent } from './types.js';

/** An event waiting to be sent: its JSON text and size, made once. */
interface Queued {
  json: string;
  bytes: number;
}

/** What became of one request: nothing more to do (undefined), or send it again after `waitMs`, a retry when `counts`. */
type Outcome = { waitMs: number; counts: boolean } | undefined;

/** The API's answer to one request. */
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  /** The body's `error`, or the status when it has none. */
  error: string;
  retryAfter: string | null;
}

/** Keepalive bodies in flight at once: under the browser's 64 KiB (docs/browser-sdk.md, "Transport"). */
const KEEPALIVE_BUDGET = 60_000;

/** What a refused key or origin means for the site's developer, in the API's words and what to do. */
function refusal(status: number, error: string): string {
  return status === 401
    ? `The ingest API refused the key (401): ${error} Pass init() the publishable key (dfpk_…) issued for this website. Nothing more is sent from this page.`
    : `The ingest API refused this page's origin ${location.origin} (403): ${error} Ask your platform team to add ${location.origin} to the origins of the key, or use the key issued for this website. Nothing more is sent from this page.`;
}

export interface Transport {
  /** Queues an event; false when the queue is full or sending has stopped. */
  enqueue(event: IngestEvent): boolean;
  /** Sends what is pending now; resolves true once nothing is pending, false at the timeout. */
  flush(timeoutMs: number): Promise<boolean>;
  /** The page is being hidden or unloaded: everything pending goes out by beacon. */
  drain(): void;
  /** POSTs a JSON body to /ingest/v1/<path>: the answer, or undefined on a network failure. */
  post(path: string, body: string): Promise<Answer | undefined>;
}

/**
 * Sends queued events to `POST /ingest/v1/events`, one request at a time:
 * in batches after `flushDelayMs`, by fetch with keepalive while the page
 * lives and by sendBeacon when it goes away. Every request is a "simple"
 * one (a text/plain string body, the key in ?key=), so no preflight is ever
 * needed, not even while the page closes. A 429 waits for Retry-After and
 * sends the same events again; a 503, a 408, another 5xx or a network
 * failure retries with backoff, `maxRetries` times; another 4xx drops the
 * batch; a 401 or 403 stops the SDK on this page.
 */
export function createTransport(config: Config): Transport {
  const endpoint = (path: string) => `${config.baseUrl}/ingest/v1/${path}?key=${encodeURIComponent(config.key)}`;
  let queue: Queued[] = [];
  let sending = false;
  let stopped = false;
  let delay: ReturnType<typeof setTimeout> | undefined;
  let keepaliveBytes = 0;
  let idle: (() => void)[] = [];

  const pending = () => queue.length > 0 || sending;
  const settle = () => {
    if (pending()) return;
    for (const resolve of idle) resolve();
    idle = [];
  };

  async function post(path: string, body: string, mayKeepalive = true): Promise<Answer | undefined> {
    const bytes = byteLength(body);
    const keepalive = mayKeepalive && keepaliveBytes + bytes <= KEEPALIVE_BUDGET;
    if (keepalive) keepaliveBytes += bytes;
    try {
      const res = await fetch(endpoint(path), { method: 'POST', body, keepalive, credentials: 'omit' });
      const answer: Record<string, unknown> = await res.json().catch(() => ({}));
      const error = typeof answer.error === 'string' ? answer.error : `HTTP ${res.status}.`;
      if (res.status === 401 || res.status === 403) {
        stopped = true;
        queue = [];
        tellOnce('refused', refusal(res.status, error), 'error');
      }
      return { status: res.status, body: answer, error, retryAfter: res.headers.get('Retry-After') };
    } catch {
      // The browser refuses a keepalive body when the page's other keepalive requests and beacons fill its
      // budget: while the page lives, a plain fetch still goes.
      return keepalive ? post(path, body, false) : undefined;
    } finally {
      if (keepalive) keepaliveBytes -= bytes;
    }
  }

  async function send(batch: Queued[], attempt: number): Promise<Outcome> {
    const res = await post('events', eventsBody(batch.map((item) => item.json)));
    const backoff = backoffDelay(attempt, config.retryBaseMs, config.retryMaxMs);
    if (res === undefined || res.status === 408 || res.status >= 500) {
      if (attempt < config.maxRetries) return { waitMs: backoff, counts: true };
      tellOnce('gave-up', `Could not deliver ${batch.length} event(s) to ${config.baseUrl} after ${attempt + 1} attempts (${res ? `HTTP ${res.status}` : 'network failure'}): dropped. Check baseUrl, and that the service is up.`);
      return undefined;
    }
    // The same events again once the limit allows: their eventIds make a repeat harmless.
    if (res.status === 429) return { waitMs: retryAfterMs(res.retryAfter, Date.now()) ?? backoff, counts: false };
    const { rejected } = res.body;
    if (res.status >= 400 && res.status !== 401 && res.status !== 403) {
      tellOnce(`http-${res.status}`, `The ingest API answered ${res.status}: ${res.error} These events were dropped, not retried.`);
    } else if (Array.isArray(rejected) && rejected.length > 0) {
      tellOnce('rejected', `The ingest API rejected ${rejected.length} event(s), e.g. ${JSON.stringify(rejected[0])}`);
    }
    return undefined;
  }

  /** The sending loop: one request at a time, until the queue is empty. */
  async function run(): Promise<void> {
    delay = undefined;
    if (sending) return;
    sending = true;
    let attempt = 0;
    while (queue.length > 0 && !stopped) {
      const count = nextBatchSize(queue.slice(0, config.maxBatchEvents).map((item) => item.bytes), config.maxBatchEvents, config.maxRequestBytes);
      const batch = queue.splice(0, count);
      const outcome = await send(batch, attempt);
      if (outcome === undefined) {
        attempt = 0;
        continue;
      }
      // Back at the front while waiting: should the page close meanwhile, drain() sends them.
      if (!stopped) queue.unshift(...batch);
      if (outcome.counts) attempt += 1;
      await new Promise((resolve) => setTimeout(resolve, outcome.waitMs));
    }
    sending = false;
    settle();
  }

  function schedule(now: boolean) {
    if (sending || stopped) return;
    if (now || queue.length >= config.maxBatchEvents) {
      clearTimeout(delay);
      void run();
    } else {
      delay ??= setTimeout(run, config.flushDelayMs);
    }
  }

  /** A beacon per batch; one the browser refuses is split in halves, and a single refused event goes by fetch. */
  function beacon(batch: Queued[]): void {
    const body = eventsBody(batch.map((item) => item.json));
    if (navigator.sendBeacon?.(endpoint('events'), body)) return;
    if (batch.length > 1) {
      for (const half of halves(batch)) beacon(half);
      return;
    }
    void send(batch, 0).then((outcome) => {
      // Still alive (only hidden) and the API could not take it: back in the queue.
      if (outcome !== undefined && !stopped) {
        queue.unshift(...batch);
        schedule(false);
      }
    });
  }

  return {
    enqueue(event) {
      if (stopped) return false;
      if (queue.length >= config.maxQueuedEvents) {
        tellOnce('full', `${config.maxQueuedEvents} events are already waiting for the ingest API: new ones are dropped until they are sent.`);
        return false;
      }
      const json = JSON.stringify(event);
      queue.push({ json, bytes: byteLength(json) });
      schedule(false);
      return true;
    },
    flush(timeoutMs) {
      schedule(true);
      return new Promise<boolean>((resolve) => {
        if (!pending()) return resolve(true);
        const timer = setTimeout(() => resolve(false), timeoutMs);
        idle.push(() => {
          clearTimeout(timer);
          resolve(true);
        });
      });
    },
    drain() {
      if (stopped || queue.length === 0) return;
      clearTimeout(delay);
      delay = undefined;
      for (const batch of batches(queue.splice(0), config.maxBatchEvents, config.maxRequestBytes)) beacon(batch);
      settle();
    },
    post,
  };
}
