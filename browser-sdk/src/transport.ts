import { retryable, retryWait } from './backoff.js';
import { batches, byteLength, eventsBody, halves, nextBatchSize } from './batch.js';
import { tellOnce } from './console.js';
import type { Config, IngestEvent } from './types.js';

/** An event waiting to be sent: its JSON text and size, made once, and the tries that failed so far. */
interface Queued {
  json: string;
  bytes: number;
  tries: number;
}

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
 * Sends queued events to `POST /ingest/v1/events`, one request at a time,
 * by fetch with keepalive while the page lives and by sendBeacon when it
 * goes away. The first event after a quiet moment leaves at once (a lone
 * error never waits for the page's close-time send, which some browsers
 * drop: docs/browser-sdk.md#what-survives-a-closing-tab); what follows
 * within `flushDelayMs` of a request goes as one batch when that window
 * ends, or at once when it fills a request. Every request is a "simple" one
 * (a text/plain string body, the key in ?key=), so no preflight is ever
 * needed, not even while the page closes. Refusals follow the retry rule
 * (backoff.ts); another 4xx drops the batch; a 401 or 403 stops the SDK on
 * this page.
 */
export function createTransport(config: Config): Transport {
  const endpoint = (path: string) => `${config.baseUrl}/ingest/v1/${path}?key=${encodeURIComponent(config.key)}`;
  let queue: Queued[] = [];
  let sending = false;
  let stopped = false;
  /** The batching window, open for `flushDelayMs` after each request starts: what comes meanwhile waits for its end. */
  let batching: ReturnType<typeof setTimeout> | undefined;
  /** flush() asked for everything now, window or not. */
  let urgent = false;
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

  /**
   * One try of `batch`: undefined once it is done with (stored, or dropped),
   * else the wait before the next try, its events back at the front of the
   * queue, where what is captured meanwhile joins them.
   */
  async function attempt(batch: Queued[]): Promise<number | undefined> {
    const res = await post('events', eventsBody(batch.map((item) => item.json)));
    if (retryable(res?.status)) {
      for (const item of batch) item.tries += 1;
      const left = batch.filter((item) => item.tries <= config.maxRetries);
      if (left.length < batch.length) {
        tellOnce('gave-up', `Could not deliver ${batch.length - left.length} event(s) to ${config.baseUrl} after ${config.maxRetries + 1} attempts (${res ? `HTTP ${res.status}` : 'network failure'}): dropped. Check baseUrl, and that the service is up.`);
      }
      if (left.length === 0 || stopped) return undefined;
      queue.unshift(...left);
      return retryWait(res?.status, res?.retryAfter ?? null, (left[0] as Queued).tries, config, Date.now());
    }
    const { rejected } = (res as Answer).body;
    if ((res as Answer).status >= 400 && !stopped) {
      tellOnce(`http-${(res as Answer).status}`, `The ingest API answered ${(res as Answer).status}: ${(res as Answer).error} These events were dropped, not retried.`);
    } else if (Array.isArray(rejected) && rejected.length > 0) {
      tellOnce('rejected', `The ingest API rejected ${rejected.length} event(s), e.g. ${JSON.stringify(rejected[0])}`);
    }
    return undefined;
  }

  /**
   * The sending loop, one request at a time: a retry when one is due, else
   * the queue's head when the window is closed, a request's worth is queued,
   * or flush() asked.
   */
  async function run(): Promise<void> {
    if (sending || stopped) return;
    sending = true;
    let retry = false;
    while (queue.length > 0 && !stopped && (retry || urgent || batching === undefined || queue.length >= config.maxBatchEvents)) {
      clearTimeout(batching);
      batching = setTimeout(() => {
        batching = undefined;
        void run();
      }, config.flushDelayMs);
      const count = nextBatchSize(queue.slice(0, config.maxBatchEvents).map((item) => item.bytes), config.maxBatchEvents, config.maxRequestBytes);
      const wait = await attempt(queue.splice(0, count));
      // The next try goes after the wait, with what was captured meanwhile: no request of its own.
      retry = wait !== undefined;
      if (retry) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (queue.length === 0) urgent = false;
    sending = false;
    settle();
  }

  /** A beacon per batch; one the browser refuses is split in halves, and a single refused event goes by fetch. */
  function beacon(batch: Queued[]): void {
    const body = eventsBody(batch.map((item) => item.json));
    if (navigator.sendBeacon?.(endpoint('events'), body)) return;
    if (batch.length > 1) {
      for (const half of halves(batch)) beacon(half);
      return;
    }
    // Still alive (only hidden) and the API could not take it: back in the queue, for the loop.
    void attempt(batch).then((wait) => wait !== undefined && setTimeout(run, wait));
  }

  return {
    enqueue(event) {
      if (stopped) return false;
      if (queue.length >= config.maxQueuedEvents) {
        tellOnce('full', `${config.maxQueuedEvents} events are already waiting for the ingest API: new ones are dropped until they are sent.`);
        return false;
      }
      const json = JSON.stringify(event);
      queue.push({ json, bytes: byteLength(json), tries: 0 });
      void run();
      return true;
    },
    flush(timeoutMs) {
      urgent = true;
      void run();
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
      for (const batch of batches(queue.splice(0), config.maxBatchEvents, config.maxRequestBytes)) beacon(batch);
      settle();
    },
    post,
  };
}
