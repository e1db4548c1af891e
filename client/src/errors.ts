import type { RateLimitStatus } from './rate-limit.js';

/** Every error the client throws is a ContactsError (an abort rethrows the signal's reason instead). */
export class ContactsError extends Error {
  override name = 'ContactsError';
}

/** The client was set up wrongly (a publishable key, a browser, a bad base URL): fix the code, retrying cannot help. */
export class ContactsConfigError extends ContactsError {
  override name = 'ContactsConfigError';
}

/** An address the service would refuse, so it can name no contact (`contactId`). */
export class InvalidEmailError extends ContactsError {
  override name = 'InvalidEmailError';
}

/** The service answered with an error status. */
export class ContactsApiError extends ContactsError {
  override name = 'ContactsApiError';
  /** The HTTP status: 400, 401, 403, 404, 405, 413, 422, 429, 503, or one of the HTTP layer's. */
  readonly status: number;
  /**
   * The answer's `X-Request-Id`: quote it when asking about the request.
   * Absent when the HTTP layer in front of the service answered.
   */
  readonly requestId: string | undefined;
  /** The answer's `Retry-After`, in seconds, when it had one (429, 503). */
  readonly retryAfterSeconds: number | undefined;
  /** Where the key stood, when the answer said (every answer after the key check: 429, 404, 422…). */
  readonly rateLimit: RateLimitStatus | undefined;

  constructor(message: string, status: number, requestId: string | undefined, retryAfterSeconds: number | undefined, rateLimit?: RateLimitStatus) {
    super(message);
    this.status = status;
    this.requestId = requestId;
    this.retryAfterSeconds = retryAfterSeconds;
    this.rateLimit = rateLimit;
  }
}

/** No answer came: the connection failed, or one attempt took longer than `attemptTimeoutMs`. */
export class ContactsNetworkError extends ContactsError {
  override name = 'ContactsNetworkError';
}

/** The call took longer than its `timeoutMs`, retries and waits included. */
export class ContactsTimeoutError extends ContactsError {
  override name = 'ContactsTimeoutError';
  readonly timeoutMs: number;

  constructor(message: string, timeoutMs: number, options?: ErrorOptions) {
    super(message, options);
    this.timeoutMs = timeoutMs;
  }
}
