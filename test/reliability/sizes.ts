/**
 * How big the reliability tests run. `npm test` runs them sampled (small,
 * seconds); `npm run stress` sets STRESS=full for the sizes the reliability
 * issue names. Anything else in STRESS is a typo, and fails loudly.
 */
const mode = process.env.STRESS || 'sampled';
if (mode !== 'sampled' && mode !== 'full') {
  throw new Error(`STRESS must be "full" or "sampled" (or unset), not ${JSON.stringify(mode)}`);
}

export const STRESS_MODE: 'sampled' | 'full' = mode;

const SAMPLED = {
  /** Upserts of one new email, and the connections they are spread over. */
  sameEmailUpserts: 120,
  connections: 50,
  /** Concurrent upserts writing different fields of one contact. */
  fieldWriters: 60,
  /** Parallel requests in the other upsert races (company links, createdAt, source). */
  parallel: 30,
  /** Per-key limit N of the rate-limit races (3N requests are fired). */
  rateLimit: 20,
  /** Revocation under load: connections, answers before `keys revoke`, requests per connection after it. */
  revocationConnections: 20,
  requestsBeforeRevoke: 60,
  requestsAfterRevoke: 5,
  /** Fault matrix: also reads by a key new to the container (the others always run). */
  allFaultRequests: false,
  /** Chaos: emails, and upserts of each, under random faults. */
  chaosEmails: 12,
  chaosUpsertsPerEmail: 3,
  /** jest timeout of one sized test: generous, as their clients wait out a loaded machine's DynamoDB Local (UNHURRIED). */
  testTimeoutMs: 120_000,
};

const FULL: typeof SAMPLED = {
  sameEmailUpserts: 1000,
  connections: 50,
  fieldWriters: 500,
  parallel: 200,
  rateLimit: 200,
  revocationConnections: 50,
  requestsBeforeRevoke: 1000,
  requestsAfterRevoke: 40,
  allFaultRequests: true,
  chaosEmails: 150,
  chaosUpsertsPerEmail: 4,
  testTimeoutMs: 180_000,
};

export const SIZES = STRESS_MODE === 'full' ? FULL : SAMPLED;
