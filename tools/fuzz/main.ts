/**
 * npm run fuzz: the hostile-input property at scale. Generated requests
 * (random methods, paths, headers, query strings, bodies) against the API
 * handler in-process and through the local HTTP adapter, each answer judged
 * against docs/contacts-api.md and docs/ingest-api.md; prints requests, statuses, failures with the seed and
 * path that replay them, and the time. Exit code 1 on any failure.
 */
import { createDocumentClient, DEFAULT_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import type { Channel } from './run';
import { openScratchStore } from '../../local/harness/store';

const USAGE = `usage: npm run fuzz [-- options]

Sends generated hostile requests to the contacts API handler, in-process and
through the local HTTP adapter, and checks every answer against docs/contacts-api.md and docs/ingest-api.md
(statuses per endpoint and precedence, error shape, headers, no key in any
error, tenant isolation). Uses DYNAMODB_ENDPOINT when set, otherwise starts
an in-memory DynamoDB Local.

  --requests N     requests in all (default 100000, env FUZZ_REQUESTS)
  --http-share P   percent of them sent as raw bytes through the HTTP adapter (default 10)
  --seed S         base seed (default: random, printed)
  --workers W      concurrent property runs per channel (default 8)
  --replay C:S:P   run one counterexample again: channel, seed and path as printed`;

function replayArg(value: string | undefined) {
  if (value === undefined) return undefined;
  const match = /^(in-process|http):(-?\d+):([\d:]+)$/.exec(value);
  if (!match) throw new UsageError(`--replay takes <channel>:<seed>:<path> as printed by a failed run, got "${value}"`);
  return { channel: match[1] as Channel, seed: Number(match[2]), path: match[3] as string };
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    requests: { type: 'string' },
    'http-share': { type: 'string' },
    seed: { type: 'string' },
    workers: { type: 'string' },
    replay: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const requests = positiveIntArg('--requests', values.requests ?? process.env.FUZZ_REQUESTS, 100_000_000) ?? 100_000;
  const share = positiveIntArg('--http-share', values['http-share'], 100) ?? 10;
  const workers = positiveIntArg('--workers', values.workers, 256) ?? 8;
  if (values.seed !== undefined && !/^-?\d+$/.test(values.seed)) throw new UsageError(`--seed must be a whole number, got "${values.seed}"`);
  const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
  const replay = replayArg(values.replay);

  // Quiet handler: its request log and metrics would bury the summary. Set
  // before the handler's modules load (their logger reads it once).
  process.env.LOG_LEVEL ??= 'SILENT';
  process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
  const { formatSummary, runFuzz, startFuzzTarget } = await import('./run');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  const store = await openScratchStore({ say, exitOnSignal: true });
  const doc = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: store.endpoint, requestTimeoutMs: 5000 });
  let failed = true;
  try {
    const target = await startFuzzTarget(doc, store.tables);
    try {
      const http = Math.round((requests * share) / 100);
      say(
        replay
          ? `replaying ${values.replay}`
          : `fuzzing: ${requests} requests (${http} through the HTTP adapter), seed ${seed}, ${workers} workers per channel`,
      );
      const summary = await runFuzz(target, {
        runs: { 'in-process': requests - http, http },
        seed: replay?.seed ?? seed,
        workers,
        replay,
        onProgress: (done) => {
          if (done % 10_000 === 0) say(`  … ${done} requests`);
        },
      });
      process.stdout.write(`${formatSummary(summary)}\n`);
      failed = summary.failures.length > 0;
    } finally {
      await target.close();
    }
  } finally {
    doc.destroy();
    await store.close();
  }
  if (failed) process.exit(1);
});
