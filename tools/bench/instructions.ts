/**
 * npm run bench:instructions: the instruction counts of `npm run bench`
 * alone (instruction-count.ts), without the rest of the benchmark.
 *
 *   npm run bench:instructions -- [--shapes get,upsert] [--requests 1800,3000]
 *
 * About 9 minutes with the defaults on a quiet machine (valgrind runs Node
 * tens of times slower); `--requests 100,300` is faster and reads high (the
 * JIT is still compiling). On DynamoDB Local (or DYNAMODB_ENDPOINT).
 */
import './env';
import { parseCommandLine, runCommand, UsageError } from '../../local/harness/cli';
import { SetupError } from '../../local/harness/setup-error';
import type { BareShape } from './bare-client';
import { countInstructions, DEFAULT_INSTRUCTION_REQUESTS, hasValgrind, requestsArg } from './instruction-count';
import { instructionTable } from './report';
import { openBenchStore } from './store';

const USAGE = `usage: npm run bench:instructions [-- options]

Counts the instructions the bare client's DynamoDB calls and the Lambda
handler making the same calls execute per request, under valgrind, and
prints what the handler adds and the ratio npm run bench judges (≤ 1.10).
Unlike times on this machine, counts do not depend on what else runs.
Needs valgrind; about 9 minutes with the defaults.

  --shapes LIST     get, upsert or both (default get,upsert)
  --requests N1,N2  requests in the two processes compared (default 1800,3000;
                    fewer is faster and reads high: before about 1,800
                    requests under valgrind the JIT is still compiling)`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { shapes: { type: 'string' }, requests: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const shapes = (values.shapes ?? 'get,upsert').split(',');
  for (const shape of shapes) if (shape !== 'get' && shape !== 'upsert') throw new UsageError(`--shapes takes get and/or upsert, got "${shape}"`);
  let requests: [number, number];
  try {
    requests = requestsArg('--requests', values.requests) ?? DEFAULT_INSTRUCTION_REQUESTS;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  if (!hasValgrind()) throw new SetupError('valgrind is not on PATH: install it (Debian: apt-get install valgrind) to count instructions.');
  const say = (line: string) => process.stderr.write(`${line}\n`);
  say('starting the store …');
  const store = await openBenchStore();
  try {
    const result = await countInstructions(store, { shapes: shapes as BareShape[], requests, onProgress: say });
    process.stdout.write(`${instructionTable(result)}\n`);
  } finally {
    await store.close();
  }
});
