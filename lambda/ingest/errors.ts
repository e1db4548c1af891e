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
