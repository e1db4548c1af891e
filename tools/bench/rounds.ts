/**
 * Sequential rounds from the times of a request's DynamoDB calls.
 *
 * A call "waited" when it started at or after an earlier call had finished:
 * it could not have been sent together with it. The round of a call is one
 * more than the highest round among the calls that had finished when it
 * started; the request's rounds are the highest round of its calls, i.e. the
 * longest chain of calls that had to wait for one another. Two calls sent in
 * the same tick overlap and share a round.
 */

export interface TimedCall {
  /** When the call was sent and when its answer arrived (ms, one clock). */
  start: number;
  end: number;
}

export interface RoundsSummary {
  calls: number;
  /** Longest chain of calls that each had to wait for the previous one (0 without calls). */
  rounds: number;
  /** Calls that started only after another call had finished. */
  waited: number;
  /** The round of each call, in the order given. */
  roundOf: number[];
}

export function sequentialRounds(calls: readonly TimedCall[]): RoundsSummary {
  const order = calls.map((_, index) => index).sort((a, b) => (calls[a] as TimedCall).start - (calls[b] as TimedCall).start);
  const roundOf: number[] = new Array<number>(calls.length).fill(0);
  for (const index of order) {
    const call = calls[index] as TimedCall;
    let round = 1;
    for (const earlier of order) {
      const other = calls[earlier] as TimedCall;
      if (earlier !== index && other.end <= call.start) round = Math.max(round, (roundOf[earlier] as number) + 1);
    }
    roundOf[index] = round;
  }
  return {
    calls: calls.length,
    rounds: roundOf.reduce((max, round) => Math.max(max, round), 0),
    waited: roundOf.filter((round) => round > 1).length,
    roundOf,
  };
}
