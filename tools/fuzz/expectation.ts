/** The statuses the API docs allow for a request, and the rule that decided: what both oracles (oracle.ts, ingest-oracle.ts) answer. */
export interface Expectation {
  statuses: number[];
  reason: string;
  /** What a 200 must hold. */
  reads?: { id: string } | { email: string };
}
