import { retryable, retryWait } from './backoff.js';
import { batches, byteLength, eventsBody, halves, nextBatchSize } from './batch.js';
import { tellOnce } from './console.js';
import type { Config, IngestEvent } from './types.js';

/**
 * The SDK's transport, in Sentry's shape (`createTransport(options,
 * makeRequest)`): the logic here (batching, the retry rule, rate limits,
 * refusals, beacons when the page goes) and the platform's requests in a
 * `RequestMaker` given to it (browser-requests.ts: `fetch` and
 * `sendBeacon`), so the logic runs in Node against a fake one
 * (test/browser-sdk/src/transport.test.ts). Sentry's makeRequest is one
 * function; here it has two, since a beacon's acceptance is known at once
 * and a refused one is split while the page is still closing.
 */

/** An event waiting to be sent: its JSON text and size, made once, and the tries that failed so far. */
interface Queued {
  json: string;
  bytes: number;
  tries: number;
}

/** One POST of a JSON string body, as the transport asks for it. */
export interface TransportRequest {
  url: string;
  body: string;
  /** Whether the request may outlive the page (fetch's `keepalive`). */
  keepalive: boolean;
}

/** What came back: the status, the JSON body ({} when there is none) and `Retry-After`. */
export interface TransportResponse {
  status: number;
  body: Record<string, unknown>;
  retryAfter: string | null;
}

/** The platform's side of the transport: the only place a request is made. */
export interface RequestMaker {
  /** Sends the request now; rejects on a network failure, and when the browser refuses a keepalive body. */
  send(request: TransportRequest): Promise<TransportResponse>;
  /** Hands a body to the browser to send even once the page is gone (no answer is ever seen); false when it refuses it. */
  beacon(url: string, body: string): boolean;
  /** The origin the requests come from, as the API saw it in a 403. */
  origin: string;
}

/** The API's answer to one request. */
export interface Answer extends TransportResponse {
  /** The body's `error`, or the status when it has none. */
  error: string;
}

/** Keepalive bodies in flight at once: under the browser's 64 KiB (docs/browser-sdk.md, "Transport"). */
const KEEPALIVE_BUDGET = 60_000;

/** What a refused key or origin means for the site's developer, in the API's words and what to do. */
function refusal(status: number, error: string, origin: string): string {
  return status === 401
    ? `The ingest API refused the key (401): ${error} Pass init() the publishable key (dfpk_…) issued for this website. Nothing more is sent from this page.`
    : `The ingest API refused this page's origin ${origin} (403): ${error} Ask your platform team to add ${origin} to the origins of the key, or use the key issued for this website. Nothing more is sent from this page.`;
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

/** What one try of a batch came to: the events to try again and the wait before, or nothing (stored, or dropped). */
type Outcome = { again: Queued[]; wait: number } | undefined;

/**
 * Judges one try of `batch` by the API's answer (undefined: a network
 * failure) with the retry rule (backoff.ts), and tells the console what the
 * site's developer should know: events given up after their last try, a 4xx
 * that drops them, events the API rejected.
 */
function judge(batch: Queued[], res: Answer | undefined, config: Config, stopped: boolean): Outcome {
  if (retryable(res?.status)) {
    for (const item of batch) item.tries += 1;
    const left = batch.filter((item) => item.tries <= config.maxRetries);
    if (left.length < batch.length) {
      tellOnce(
        'gave-up',
        `Could not deliver ${batch.length - left.length} event(s) to ${config.baseUrl} after ${config.maxRetries + 1} attempts (${res ? `HTTP ${res.status}` : 'network failure'}): dropped. Check baseUrl, and that the service is up.`,
      );
    }
    if (left.length === 0 || stopped) return undefined;
    return { again: left, wait: retryWait(res?.status, res?.retryAfter ?? null, (left[0] as Queued).tries, config, Date.now()) };
  }
  const { status, body, error } = res as Answer;
  if (status >= 400 && !stopped) {
    tellOnce(`http-${status}`, `The ingest API answered ${status}: ${error} These events were dropped, not retried.`);
  } else if (Array.isArray(body.rejected) && body.rejected.length > 0) {
    tellOnce('rejected', `The ingest API rejected ${body.rejected.length} event(s), e.g. ${JSON.stringify(body.rejected[0])}`);
  }
  return undefined;
}

/**
 * Sends queued events to `POST /ingest/v1/events`, one request at a time,
 * by a keepalive request while the page lives and by beacon when it goes
 * away. The first event after a quiet moment leaves at once (a lone
 * error never waits for the page's close-time send, which some browsers
 * drop: docs/browser-sdk.md#what-survives-a-closing-tab); what follows
 * within `flushDelayMs` of a request goes as one batch when that window
 * ends, or at once when it fills a request. Every request is a "simple" one
 * (a text/plain string body, the key in ?key=), so no preflight is ever
 * needed, not even while the page closes. Refusals follow the retry rule
 * (backoff.ts); another 4xx drops the batch; a 401 or 403 stops the SDK on
 * this page.
 */
class EventSender implements Transport {
  private queue: Queued[] = [];
  private sending = false;
  private stopped = false;
  /** The batching window, open for `flushDelayMs` after each request starts: what comes meanwhile waits for its end. */
  private batching: ReturnType<typeof setTimeout> | undefined;
  /** flush() asked for everything now, window or not. */
  private urgent = false;
  private keepaliveBytes = 0;
  private idle: (() => void)[] = [];

  constructor(
    private readonly config: Config,
    private readonly requests: RequestMaker,
  ) {}

  enqueue(event: IngestEvent): boolean {
    if (this.stopped) return false;
    if (this.queue.length >= this.config.maxQueuedEvents) {
      tellOnce('full', `${this.config.maxQueuedEvents} events are already waiting for the ingest API: new ones are dropped until they are sent.`);
      return false;
    }
    const json = JSON.stringify(event);
    this.queue.push({ json, bytes: byteLength(json), tries: 0 });
    void this.run();
    return true;
  }

  flush(timeoutMs: number): Promise<boolean> {
    this.urgent = true;
    void this.run();
    return new Promise<boolean>((resolve) => {
      if (!this.pending()) return resolve(true);
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idle.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  drain(): void {
    if (this.stopped || this.queue.length === 0) return;
    for (const batch of batches(this.queue.splice(0), this.config.maxBatchEvents, this.config.maxRequestBytes)) this.beacon(batch);
    this.settle();
  }

  async post(path: string, body: string, mayKeepalive = true): Promise<Answer | undefined> {
    const bytes = byteLength(body);
    const keepalive = mayKeepalive && this.keepaliveBytes + bytes <= KEEPALIVE_BUDGET;
    if (keepalive) this.keepaliveBytes += bytes;
    try {
      const res = await this.requests.send({ url: this.endpoint(path), body, keepalive });
      const error = typeof res.body.error === 'string' ? res.body.error : `HTTP ${res.status}.`;
      if (res.status === 401 || res.status === 403) this.stop(res.status, error);
      return { ...res, error };
    } catch {
      // The browser refuses a keepalive body when the page's other keepalive requests and beacons fill its
      // budget: while the page lives, a plain fetch still goes.
      return keepalive ? this.post(path, body, false) : undefined;
    } finally {
      if (keepalive) this.keepaliveBytes -= bytes;
    }
  }

  private endpoint(path: string): string {
    return `${this.config.baseUrl}/ingest/v1/${path}?key=${encodeURIComponent(this.config.key)}`;
  }

  /** A refused key or origin: nothing more is sent from this page, and the console says why. */
  private stop(status: number, error: string): void {
    this.stopped = true;
    this.queue = [];
    tellOnce('refused', refusal(status, error, this.requests.origin), 'error');
  }

  private pending(): boolean {
    return this.queue.length > 0 || this.sending;
  }

  private settle(): void {
    if (this.pending()) return;
    for (const resolve of this.idle) resolve();
    this.idle = [];
  }

  /**
   * One try of `batch`: undefined once it is done with (stored, or dropped),
   * else the wait before the next try, its events back at the front of the
   * queue, where what is captured meanwhile joins them.
   */
  private async attempt(batch: Queued[]): Promise<number | undefined> {
    const outcome = judge(batch, await this.post('events', eventsBody(batch.map((item) => item.json))), this.config, this.stopped);
    if (outcome) this.queue.unshift(...outcome.again);
    return outcome?.wait;
  }

  /** Whether the queue's head goes now: a retry is due, flush() asked, the window is closed, or a request's worth is queued. */
  private due(retry: boolean): boolean {
    return this.queue.length > 0 && !this.stopped && (retry || this.urgent || this.batching === undefined || this.queue.length >= this.config.maxBatchEvents);
  }

  /** The sending loop, one request at a time, while the queue's head is due. */
  private async run(): Promise<void> {
    if (this.sending || this.stopped) return;
    this.sending = true;
    const { config } = this;
    let retry = false;
    while (this.due(retry)) {
      clearTimeout(this.batching);
      this.batching = setTimeout(() => {
        this.batching = undefined;
        void this.run();
      }, config.flushDelayMs);
      const count = nextBatchSize(
        this.queue.slice(0, config.maxBatchEvents).map((item) => item.bytes),
        config.maxBatchEvents,
        config.maxRequestBytes,
      );
      const wait = await this.attempt(this.queue.splice(0, count));
      // The next try goes after the wait, with what was captured meanwhile: no request of its own.
      retry = wait !== undefined;
      if (retry) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    if (this.queue.length === 0) this.urgent = false;
    this.sending = false;
    this.settle();
  }

  /** A beacon per batch; one the browser refuses is split in halves, and a single refused event goes by fetch. */
  private beacon(batch: Queued[]): void {
    const body = eventsBody(batch.map((item) => item.json));
    if (this.requests.beacon(this.endpoint('events'), body)) return;
    if (batch.length > 1) {
      for (const half of halves(batch)) this.beacon(half);
      return;
    }
    // Still alive (only hidden) and the API could not take it: back in the queue, for the loop.
    void this.attempt(batch).then((wait) => wait !== undefined && setTimeout(() => this.run(), wait));
  }
}

/** The transport of one init(), its requests made by `makeRequest`: see EventSender. */
export const createTransport = (config: Config, makeRequest: RequestMaker): Transport => new EventSender(config, makeRequest);
