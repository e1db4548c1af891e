import { checkSetup } from './environment.js';
import { ContactsApiError, ContactsConfigError, ContactsError, ContactsNetworkError, ContactsTimeoutError } from './errors.js';
import { parseRateLimit, type RateLimitStatus } from './rate-limit.js';
import { parseRetryAfter, retryDelayMs, type AttemptOutcome } from './retry.js';
import type { Contact, ContactAnswer, ErrorAnswer, UpsertContactAnswer, UpsertContactRequest } from './schema.js';

export type Operation = 'upsertContact' | 'getContact' | 'findContactByEmail';

/** Told to `onRetry` before each wait: an attempt failed in a way worth retrying. */
export interface RetryEvent {
  operation: Operation;
  /** The attempt that failed: 1 for the first. */
  attempt: number;
  /** How long the client waits before the next attempt. */
  delayMs: number;
  /** Why: the service's 429 or 503, or no answer at all. */
  error: ContactsApiError | ContactsNetworkError;
}

export interface ContactsClientOptions {
  /** A secret key (`dfsk_…`). Servers only: the client refuses to run in a browser. */
  apiKey: string;
  /** The API's address: `https://<id>.execute-api.<region>.amazonaws.com/prod`, or `http://localhost:3000`. */
  baseUrl: string | URL;
  /** Attempts per call, the first included (default 4). */
  maxAttempts?: number;
  /** Longest a call may take, its retries and waits included (default 30 s); a call can lower it. */
  timeoutMs?: number;
  /** Longest one attempt may wait for its answer before it counts as a network failure and is retried (default 12 s). */
  attemptTimeoutMs?: number;
  /** Called before each wait for a retry, for logs and metrics. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * Called with where the key stands after every answer that says so (every
   * answer after the key check, 429 included): a caller can slow down before
   * the limit refuses it.
   */
  onRateLimit?: (status: RateLimitStatus, operation: Operation) => void;
  /** The fetch to use (default: the platform's). */
  fetch?: typeof fetch;
}

export interface CallOptions {
  /** Aborting it ends the call at once, rejecting with the signal's reason. */
  signal?: AbortSignal;
  /** This call's own time limit, its retries and waits included. */
  timeoutMs?: number;
}

const DEFAULTS = { maxAttempts: 4, timeoutMs: 30_000, attemptTimeoutMs: 12_000 };

/** A final answer: a success, or a 404 the caller turns into null. */
interface Answer {
  status: number;
  body: unknown;
}

interface Request {
  operation: Operation;
  method: 'GET' | 'POST';
  /** Relative to the base URL. */
  path: string;
  body?: unknown;
  /** Statuses that are answers, not errors. */
  answers: readonly number[];
}

function positive(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) throw new ContactsConfigError(`${name} must be a positive number (got ${String(value)})`);
  return value;
}

function baseOf(baseUrl: string | URL): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ContactsConfigError(`baseUrl must be an absolute URL like https://api.example.com (got ${JSON.stringify(String(baseUrl))})`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ContactsConfigError(`baseUrl must be http or https (got ${url.protocol})`);
  // Paths are resolved against it: keep a stage such as /prod.
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  url.search = '';
  url.hash = '';
  return url;
}

function isContactAnswer(body: unknown): body is ContactAnswer {
  const contact = (body as { contact?: unknown } | null)?.contact;
  return typeof contact === 'object' && contact !== null && typeof (contact as { id?: unknown }).id === 'string';
}

function errorMessage(status: number, text: string): string {
  try {
    const body = JSON.parse(text) as Partial<ErrorAnswer>;
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not the API's JSON: the HTTP layer in front of it answered.
  }
  return `HTTP ${status}${text ? `: ${text.slice(0, 200)}` : ''}`;
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * The contacts API from a server: upsert, read by id, find by email, with
 * the specification's retries done for you (see retry.ts).
 *
 * ```ts
 * const contacts = new ContactsClient({ apiKey: process.env.CONTACTS_KEY!, baseUrl: 'https://…/prod' });
 * const { contact, created } = await contacts.upsertContact({ email: 'ada@example.com', name: 'Ada' });
 * ```
 */
export class ContactsClient {
  readonly #apiKey: string;
  readonly #base: URL;
  readonly #maxAttempts: number;
  readonly #timeoutMs: number;
  readonly #attemptTimeoutMs: number;
  readonly #onRetry: ((event: RetryEvent) => void) | undefined;
  readonly #onRateLimit: ((status: RateLimitStatus, operation: Operation) => void) | undefined;
  readonly #fetch: typeof fetch;

  constructor(options: ContactsClientOptions) {
    this.#apiKey = checkSetup(options?.apiKey);
    this.#base = baseOf(options.baseUrl);
    this.#maxAttempts = Math.floor(positive('maxAttempts', options.maxAttempts, DEFAULTS.maxAttempts));
    this.#timeoutMs = positive('timeoutMs', options.timeoutMs, DEFAULTS.timeoutMs);
    this.#attemptTimeoutMs = positive('attemptTimeoutMs', options.attemptTimeoutMs, DEFAULTS.attemptTimeoutMs);
    this.#onRetry = options.onRetry;
    this.#onRateLimit = options.onRateLimit;
    const platformFetch = (globalThis as { fetch?: typeof fetch }).fetch;
    const chosen = options.fetch ?? platformFetch;
    if (typeof chosen !== 'function') throw new ContactsConfigError('No fetch: run on Node 20+ (or any runtime with fetch), or pass options.fetch.');
    this.#fetch = options.fetch ?? ((input, init) => chosen(input, init));
  }

  /**
   * Creates the contact with this email, or updates it (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). Fields
   * left out keep their stored values. `created` is true when this call
   * created it. Safe to retry, and retried for you on 429 and 503.
   */
  async upsertContact(payload: UpsertContactRequest, options: CallOptions = {}): Promise<UpsertContactAnswer> {
    const { body } = await this.#call({ operation: 'upsertContact', method: 'POST', path: 'api/v1/contacts', body: payload, answers: [200, 201] }, options);
    if (!isContactAnswer(body) || typeof (body as { created?: unknown }).created !== 'boolean') {
      throw new ContactsError('The upsert answered without {contact, created}: is baseUrl the contacts API?');
    }
    return body as UpsertContactAnswer;
  }

  /** The contact with this id in your factory, or null when there is none (404). */
  async getContact(id: string, options: CallOptions = {}): Promise<Contact | null> {
    const path = `api/v1/contacts/${encodeURIComponent(id)}`;
    return this.#read({ operation: 'getContact', method: 'GET', path, answers: [200, 404] }, options);
  }

  /** The contact with this email in your factory (case-insensitive), or null when there is none (404). */
  async findContactByEmail(email: string, options: CallOptions = {}): Promise<Contact | null> {
    const path = `api/v1/contacts?email=${encodeURIComponent(email)}`;
    return this.#read({ operation: 'findContactByEmail', method: 'GET', path, answers: [200, 404] }, options);
  }

  async #read(request: Request, options: CallOptions): Promise<Contact | null> {
    const { status, body } = await this.#call(request, options);
    if (status === 404) return null;
    if (!isContactAnswer(body)) throw new ContactsError('The read answered without {contact}: is baseUrl the contacts API?');
    return body.contact;
  }

  /** One call: attempts until an answer, an error not worth retrying, the last attempt or the time limit. */
  async #call(request: Request, options: CallOptions): Promise<Answer> {
    const timeoutMs = positive('timeoutMs', options.timeoutMs, this.#timeoutMs);
    const deadline = Date.now() + timeoutMs;
    const call = new AbortController();
    const onCallerAbort = () => call.abort(options.signal?.reason);
    if (options.signal?.aborted) throw options.signal.reason;
    options.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timer = setTimeout(
      () => call.abort(new ContactsTimeoutError(`${request.operation} did not finish within ${timeoutMs} ms (retries included)`, timeoutMs)),
      timeoutMs,
    );
    try {
      for (let attempt = 1; ; attempt += 1) {
        const result = await this.#attempt(request, call.signal);
        if ('answer' in result) return result.answer;
        const delayMs = retryDelayMs(result.outcome, attempt - 1, Math.random());
        const giveUp = delayMs === undefined || attempt >= this.#maxAttempts || Date.now() + delayMs >= deadline;
        if (giveUp) throw result.error;
        this.#onRetry?.({ operation: request.operation, attempt, delayMs, error: result.error as ContactsApiError | ContactsNetworkError });
        await sleep(delayMs, call.signal);
      }
    } finally {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  async #attempt(request: Request, callSignal: AbortSignal): Promise<{ answer: Answer } | { outcome: AttemptOutcome; error: ContactsError }> {
    const attempt = new AbortController();
    const onCallAbort = () => attempt.abort(callSignal.reason);
    callSignal.addEventListener('abort', onCallAbort, { once: true });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attempt.abort();
    }, this.#attemptTimeoutMs);
    try {
      const response = await this.#fetch(new URL(request.path, this.#base), {
        method: request.method,
        headers: {
          Authorization: `Bearer ${this.#apiKey}`,
          Accept: 'application/json',
          ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        // The API never redirects: a redirect is not the API, and must not receive the key.
        redirect: 'error',
        signal: attempt.signal,
      });
      const text = await response.text();
      const rateLimit = parseRateLimit(response.headers.get('RateLimit-Policy'), response.headers.get('RateLimit'));
      if (rateLimit) this.#onRateLimit?.(rateLimit, request.operation);
      if (request.answers.includes(response.status)) {
        return { answer: { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown) } };
      }
      const retryAfterSeconds = parseRetryAfter(response.headers.get('Retry-After'));
      const requestId = response.headers.get('X-Request-Id') ?? undefined;
      const error = new ContactsApiError(errorMessage(response.status, text), response.status, requestId, retryAfterSeconds, rateLimit);
      return { outcome: { kind: 'status', status: response.status, retryAfterSeconds }, error };
    } catch (error) {
      if (callSignal.aborted) throw callSignal.reason;
      if (error instanceof SyntaxError) throw new ContactsError(`The ${request.operation} answer is not JSON: is baseUrl the contacts API?`);
      const message = timedOut
        ? `${request.operation}: no answer within ${this.#attemptTimeoutMs} ms`
        : `${request.operation}: ${error instanceof Error ? error.message : String(error)}`;
      return { outcome: { kind: 'network' }, error: new ContactsNetworkError(message, { cause: error }) };
    } finally {
      clearTimeout(timer);
      callSignal.removeEventListener('abort', onCallAbort);
    }
  }
}
