/**
 * What the reports table's stream consumers (the tally, lib/tally.ts; the alert notifier, lib/alerts.ts) do with a
 * batch that keeps failing, on AWS (their event source mappings) and under `npm start` (local/harness/streams, the
 * same numbers): split it in two and try each half, down to the one record that fails; try that record again a few
 * times; then give it up, its place (shard, sequence numbers) sent to the consumer's failure queue, whose alarm fires,
 * and go on with the records after it. No record can hold its shard for long (docs/report-issues.md#events-set-aside).
 *
 * A record the tally cannot count never gets here: it is set aside in the code and counted apart. What does is a
 * failure the code did not foresee, or the store failing past its own retries. Free of CDK imports: the local
 * harness reads it.
 */
export const STREAM_FAILURES = {
  /** A failed batch is split in two, each half tried on its own (splits do not use up the retries). */
  bisect: true,
  /**
   * Tries of a batch (down to one record) after its first failure. Each is one invocation, so a record that always
   * fails reaches the failure queue within minutes of its first try: a batch of 1,000 takes ten splits to reach it.
   */
  retryAttempts: 5,
  /**
   * A failing record older than this is given up without more tries. On AWS, Lambda also skips a record this old
   * that it never handed over (a consumer this far behind has its alarm long before: tally-behind, at five minutes);
   * under `npm start` only a failing one is, so that a laptop's server stopped overnight still counts, on its next
   * start, what came before. An hour: time to fix a stuck consumer before anything is given up, far short of the
   * stream's 24 hours.
   */
  maxRecordAgeSeconds: 3600,
} as const;

export type StreamFailurePolicy = { bisect: boolean; retryAttempts: number; maxRecordAgeSeconds: number };
