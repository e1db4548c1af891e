/**
 * The node the benchmarks of the CPU per event (ingest-cpu.ts, ingest-function.ts) run the functions on: Node.js 22,
 * Lambda's runtime for them, unless --node names another.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { UsageError } from '../../local/harness/cli';
import { ensureNode22 } from '../../test/support/on-node22';

export const NODE_USAGE = `  --node FILE      the node that runs the functions (default: Node.js 22, Lambda's runtime, from .node22/,
                   installed from the registry's package on first use, as npm test does)`;

export interface FunctionNode {
  path: string;
  version: string;
}

/** The node of `--node`, or Node.js 22 from .node22/. */
export async function functionNode(given: string | undefined, say: (line: string) => void): Promise<FunctionNode> {
  const path = given === undefined ? await ensureNode22(say) : resolve(given);
  const run = spawnSync(path, ['--version'], { encoding: 'utf8' });
  if (run.status !== 0) throw new UsageError(`--node ${given}: no node runs there (${run.stderr.slice(-200) || run.error?.message})`);
  return { path, version: run.stdout.trim() };
}
