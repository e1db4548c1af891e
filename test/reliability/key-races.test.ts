import type { HttpResponse } from '../support/http';
import { ConnectionPool } from '../support/connection-pool';
import { bearer, issueKey, newFactoryId, realDependencies, revokeKey, startLocalApi, type LocalApi } from '../support/local-api';
import { intervalUs, perMinutePolicy } from '../../lambda/kernel/rate-limit';
import { SIZES } from './sizes';

/**
 * The key check under concurrency, on two handler instances sharing one
 * table (two Lambda containers): the rate limit is exact, and a revoked key
 * stops working at once, in both. Sampled in `npm test`; full size with
 * `npm run stress`.
 */

const MINUTE = 60_000;
/** The containers' clock: 20 s into a minute, so no burst straddles a real minute boundary. */
const START = Math.floor(Date.now() / MINUTE) * MINUTE + 20_000;
const clock = { now: START };

const N = SIZES.rateLimit;
/** What the limiter admits at one instant (lambda/kernel/rate-limit.ts): the burst of a tenth of N, plus one. */
const AT_ONCE = perMinutePolicy(N).burst + 1;
/** Then the next request is admitted one interval (60 s / N) later. */
const RETRY_AFTER = String(Math.max(1, Math.ceil(intervalUs(perMinutePolicy(N)) / 1e6)));
const PASSED = new Set([200, 201, 404]);

let containers: [LocalApi, LocalApi];
let pools: [ConnectionPool, ConnectionPool];
beforeAll(async () => {
  // 5 s per DynamoDB attempt instead of 1 s: DynamoDB Local on a busy test machine is far slower than
  // DynamoDB, and its queueing must not turn into 503s (or SDK retries) that these invariants are not about.
  const start = () => startLocalApi({ ...realDependencies({ requestTimeoutMs: 5000 }), now: () => clock.now });
  containers = [await start(), await start()];
});
afterAll(async () => {
  for (const container of containers) await container.close();
});
/**
 * Fresh connections per test (an idle keep-alive connection may be closed by
 * the server just as it is reused). A burst is fired all at once; each
 * container takes up to `connections` of it at a time: one process stands
 * for that many Lambdas, and shares one DynamoDB client (50 sockets) among
 * them, which a real Lambda does not.
 */
beforeEach(() => {
  const connections = Math.min(3 * N, SIZES.connections);
  pools = [new ConnectionPool(containers[0].baseUrl, connections), new ConnectionPool(containers[1].baseUrl, connections)];
});
afterEach(() => {
  for (const pool of pools) pool.close();
});

/** Request i of a burst: reads and upserts alternate, and so do the containers. */
function request(key: string, i: number) {
  const pool = pools[i % 2] as ConnectionPool;
  return Math.floor(i / 2) % 2
    ? pool.send({ method: 'POST', path: '/api/v1/contacts', headers: bearer(key), body: { email: `p${i}@example.com` } })
    : pool.send({ method: 'GET', path: `/api/v1/contacts?email=p${i}%40example.com`, headers: bearer(key) });
}

const burst = (key: string, count: number) => Promise.all(Array.from({ length: count }, (_, i) => request(key, i)));

/** Makes the key known to both containers (so their reads start before the key check answers). */
const warm = async (key: string) => [await request(key, 0), await request(key, 1)];

describe(`per-key rate limit of N = ${N} per minute under 3N concurrent requests at one instant`, () => {
  test(
    'exactly the burst passes at one instant and the rest get 429 with Retry-After, while another key of the same factory is unaffected',
    async () => {
      clock.now = START;
      const factoryId = newFactoryId('rate');
      const limited = (await issueKey(factoryId, { rateLimit: N })).key;
      const other = (await issueKey(factoryId, { rateLimit: N })).key;
      const warmed = await warm(limited);

      const [results, others] = await Promise.all([burst(limited, 3 * N - warmed.length), burst(other, N)]);

      const all = [...warmed, ...results];
      expect(all.filter((r) => !PASSED.has(r.status) && r.status !== 429)).toEqual([]);
      expect(all.filter((r) => PASSED.has(r.status))).toHaveLength(AT_ONCE);
      const refused = all.filter((r) => r.status === 429);
      expect(refused).toHaveLength(3 * N - AT_ONCE);
      for (const res of refused) {
        expect(res.headers['retry-after']).toBe(RETRY_AFTER);
        expect(res.json).toEqual({ error: expect.stringContaining(`Rate limit of ${N} requests per minute`) });
      }
      // The other key has a limit of its own: its burst passes just the same.
      expect(others.filter((r: HttpResponse) => PASSED.has(r.status))).toHaveLength(AT_ONCE);
      expect(others.filter((r: HttpResponse) => !PASSED.has(r.status) && r.status !== 429)).toEqual([]);
    },
    SIZES.testTimeoutMs,
  );

  test(
    'exactly the burst passes when 3N requests find the key idle again in both containers',
    async () => {
      clock.now = START;
      const key = (await issueKey(newFactoryId('rate'), { rateLimit: N })).key;
      // Both containers saw the key busy; a minute later all guess "idle", one wins and the rest must decide again.
      await warm(key);
      clock.now = START + MINUTE;
      const statuses = (await burst(key, 3 * N)).map((r) => r.status);
      expect(statuses.filter((status) => PASSED.has(status))).toHaveLength(AT_ONCE);
      expect(statuses.filter((status) => status === 429)).toHaveLength(3 * N - AT_ONCE);
    },
    SIZES.testTimeoutMs,
  );
});

describe(`revocation under load (${SIZES.revocationConnections} connections)`, () => {
  test(
    'once `keys revoke` returns, no request with that key passes, in any container',
    async () => {
      clock.now = START + 2 * MINUTE;
      const { key, keyId } = await issueKey(newFactoryId('revoke'));
      await warm(key);

      let revoked = false;
      let answered = 0;
      let next = 0;
      const outcomes: { sentAfterRevoke: boolean; status: number }[] = [];
      // Each worker holds one request in flight, so a request leaves as soon as it is issued and
      // "sent after the revocation" is exact; each goes on for a while after it.
      const worker = async () => {
        for (let afterwards = 0; afterwards < SIZES.requestsAfterRevoke; ) {
          const sentAfterRevoke = revoked;
          const res = await request(key, next++);
          outcomes.push({ sentAfterRevoke, status: res.status });
          answered += 1;
          if (sentAfterRevoke) afterwards += 1;
        }
      };
      let stopped = false;
      const workers = Promise.all(Array.from({ length: SIZES.revocationConnections }, worker)).finally(() => {
        stopped = true;
      });
      const revocation = (async () => {
        while (answered < SIZES.requestsBeforeRevoke && !stopped) await new Promise((resolve) => setTimeout(resolve, 1));
        await revokeKey(keyId); // what `keys revoke` runs
        revoked = true;
      })();
      await Promise.all([workers, revocation]);

      const before = outcomes.filter((o) => !o.sentAfterRevoke);
      const after = outcomes.filter((o) => o.sentAfterRevoke);
      expect(before.filter((o) => PASSED.has(o.status)).length).toBeGreaterThanOrEqual(SIZES.requestsBeforeRevoke);
      expect(after).toHaveLength(SIZES.revocationConnections * SIZES.requestsAfterRevoke);
      expect(after.filter((o) => o.status !== 401)).toEqual([]);
      // In flight during the revocation: either answer, but never anything else.
      expect(before.filter((o) => !PASSED.has(o.status) && o.status !== 401)).toEqual([]);
    },
    SIZES.testTimeoutMs,
  );
});
