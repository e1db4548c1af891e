/**
 * A request body that is valid JSON but not what the ingest API takes: the
 * API answers 422 with this message (every problem, separated by "; ").
 */
export class InvalidReportError extends Error {
  override readonly name = 'InvalidReportError';

  /** @param rejectedEvents how many events the refusal covers (for the metrics), 0 when the body had none. */
  constructor(
    message: string,
    readonly rejectedEvents = 0,
  ) {
    super(message);
  }
}

/** Which limit refused: the key's requests per minute, or an issue's share of them. */
export type LimitName = 'key' | 'issue';

/**
 * A request refused by a limit (the API's 429 with Retry-After). Events of
 * issues under their limit may have been stored before an issue's limit
 * refused the rest (`stored`): sending the same request again is safe, they
 * are recognized as duplicates.
 */
export class LimitedError extends Error {
  override readonly name = 'LimitedError';
  constructor(
    message: string,
    readonly limit: LimitName,
    readonly retryAfterSeconds: number,
    readonly stored = 0,
  ) {
    super(message);
  }
}
