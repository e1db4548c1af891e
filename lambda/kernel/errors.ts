/**
 * Errors the domain's ports may raise, free of AWS and HTTP: adapters throw
 * them, the API and the functions map them to answers.
 */

/**
 * The store could not complete a call (timeout, throttling, network, service
 * error). The API answers 503: every write is idempotent, so retrying is safe.
 */
export class StorageUnavailableError extends Error {
  override readonly name: string = 'StorageUnavailableError';
  constructor(operation: string, cause: unknown) {
    super(`${operation} failed: ${cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause)}`, {
      cause,
    });
  }
}

/**
 * The store refused for load: a partition past its write ceiling
 * (docs/capacity.md), after the SDK's own retries. Nothing of the refused
 * write was applied. The API answers 429 with Retry-After, never a 5xx: the
 * caller is asked to slow down, and retrying is safe.
 */
export class StorageThrottledError extends StorageUnavailableError {
  override readonly name = 'StorageThrottledError';
}

/** A paging cursor that is not one this service handed out (for that factory). */
export class InvalidCursorError extends Error {
  override readonly name = 'InvalidCursorError';
}
