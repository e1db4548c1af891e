/**
 * The node a benchmark runs a design's functions on, and the Node options that design's stack gives them
 * (lib/node-options.ts): both benchmarks of the CPU per event (ingest-cpu.ts, ingest-function.ts) run each
 * design as Lambda would, on Node.js 22 with its functions' NODE_OPTIONS.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { runnableNodeOptions } from '../../lib/node-options';
import { UsageError } from '../../local/harness/cli';
import { ensureNode22 } from '../../test/support/on-node22';

export const NODE_USAGE = `  --node FILE      the node that runs the functions (default: Node.js 22, Lambda's runtime, from .node22/,
                   installed from the registry's package on first use, as npm test does); each design
                   runs with its functions' NODE_OPTIONS (lib/node-options.ts, where it has one)`;

export interface FunctionNode {
  path: string;
  version: string;
  /** The flags it takes in NODE_OPTIONS. */
  allowed: Set<string>;
}

/** The node of `--node`, or Node.js 22 from .node22/. */
export async function functionNode(given: string | undefined, say: (line: string) => void): Promise<FunctionNode> {
  const path = given === undefined ? await ensureNode22(say) : resolve(given);
  const run = spawnSync(path, ['-p', 'process.version + " " + JSON.stringify([...process.allowedNodeEnvironmentFlags])'], { encoding: 'utf8' });
  if (run.status !== 0) throw new UsageError(`--node ${given}: no node runs there (${run.stderr.slice(-200) || run.error?.message})`);
  const [version, flags] = [run.stdout.slice(0, run.stdout.indexOf(' ')), run.stdout.slice(run.stdout.indexOf(' ') + 1)];
  return { path, version, allowed: new Set(JSON.parse(flags) as string[]) };
}

/**
 * The NODE_OPTIONS the functions of the design in `root` deploy with, as far as `node` takes them, after `inherited`
 * ('' for none). A design from before lib/node-options.ts has none of its own.
 */
export async function designNodeOptions(root: string, node: FunctionNode, inherited = ''): Promise<string> {
  let own: readonly string[] = [];
  try {
    own = ((await import(join(root, 'lib', 'node-options'))) as typeof import('../../lib/node-options')).FUNCTION_NODE_OPTIONS;
  } catch {
    own = [];
  }
  return runnableNodeOptions({ NODE_OPTIONS: [inherited, ...own].join(' ').trim() }, node.allowed).NODE_OPTIONS ?? '';
}
