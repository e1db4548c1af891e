import { formatSummary, runFuzz, startFuzzTarget, type FuzzTarget } from '../../tools/fuzz/run';
import { tables, testDoc } from '../support/local-api';

/**
 * A sample of `npm run fuzz` (which sends 100,000 and more): the same
 * generators and oracle. A failure prints the seed and path that replay it
 * (`npm run fuzz -- --replay …`); FUZZ_SEED pins this test's seed.
 */
const RUNS = { 'in-process': 300, http: 100 };

let target: FuzzTarget;
beforeAll(async () => {
  // DynamoDB Local is slow on a busy machine: give storage calls time rather than report a 503.
  target = await startFuzzTarget(testDoc({ requestTimeoutMs: 10_000 }), tables);
});
afterAll(() => target.close());

test('hostile requests to both APIs get the status the API references list for them, a JSON error body, CORS only as the ingest API gives it, never a 5xx or a key', async () => {
  const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
  const summary = await runFuzz(target, { runs: RUNS, seed, workers: 6 });
  expect(summary.failures.length === 0 ? 'no failures' : formatSummary(summary)).toBe('no failures');
  expect(summary.requests).toBe(RUNS['in-process'] + RUNS.http);
  // Not vacuous: the sample got past every check of the precedence, to every answer.
  expect(Object.keys(summary.statuses)).toEqual(
    expect.arrayContaining(['200', '201', '202', '204', '400', '401', '403', '404', '405', '413', '415', '422', '429']),
  );
}, 120_000);
