/**
 * `npm test` in one process (package.json; arguments after `--` go to jest):
 * 1. the prerequisites check (test/support/prerequisites.ts), which stops here with the line to run when something
 *    is missing, before anything starts;
 * 2. the static checks, the type check of both projects (`tsc --noEmit -p .` and `-p browser-sdk`) and the
 *    formatter and linter (`biome check`, biome.jsonc: about a second), and beside them the stack's synth
 *    that the bundled-asset files, `npm start --bundle`'s test and the stack's bundle tests read
 *    (local/harness/bundle/assembly-cache.ts);
 * 3. once the synth is kept and Node.js 22 is at hand, the one jest run (jest.npm-test.config.js), without waiting
 *    for the type check to end: a core it would leave idle goes to the tests
 *    (docs/development.md#where-the-time-goes).
 * Jest runs on Node.js 22, the runtime the functions deploy on (test/support/on-node22.ts installs it from the
 * registry's package on first use, beside the type check), and the commands the tests start (`npm start`, the CLI)
 * on the Node that runs `npm test`, as `npm run` would start them: both Nodes are tested, and the suite's own
 * work takes a fifth less CPU on 22 (docs/development.md#on-the-runtime-lambda-runs). Where Node 22 cannot be had, jest
 * runs on this Node, and says so.
 * A type error or a style finding is printed as soon as its check ends and fails `npm test` (exit code 1) whatever
 * the tests do (`npm run lint:fix` mends what the formatter and the linter can); the run is
 * not cut short, so it stops its DynamoDB Local and checks that nothing is left running, as every run does.
 * A failed synth starts no test.
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { keptAssembly } from '../../local/harness/bundle/assembly-cache';
import { ensureNode22 } from './on-node22';
import { missingPrerequisites, report, thisMachine } from './prerequisites';

// TypeScript 7's package exports no bin path: its folder's.
const TSC = join(dirname(require.resolve('typescript/package.json')), 'bin', 'tsc');
const JEST = require.resolve('jest/bin/jest');
const BIOME = require.resolve('@biomejs/biome/bin/biome');

/** What a type check printed, and its exit code (1 when it could not start). */
interface Checked {
  project: string;
  code: number;
  output: string;
}

/** A static check (tsc on one project, or the formatter and linter), its output kept: printed at once would cut through jest's. */
function staticCheck(project: string, args: string[]): Promise<Checked> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ project, code: 1, output: error.message }));
    child.once('close', (code) => resolve({ project, code: code ?? 1, output }));
  });
}

/** The one jest run on `node`, on this terminal; its exit code. */
function runJest(node: string, args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const env = {
      ...process.env,
      // The workers' 64 MB semi-space: fewer scavenges (docs/development.md#where-the-time-goes).
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim(),
      // The Node the commands under test run on (test/support/commands.ts): this one, whatever jest runs on.
      CONTACTS_TEST_COMMAND_NODE: process.execPath,
    };
    const child = spawn(node, [JEST, '-c', 'jest.npm-test.config.js', ...args], { stdio: 'inherit', env });
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const seconds = (since: number) => Math.round((Date.now() - since) / 1000);
const say = (line: string) => process.stdout.write(`${line}\n`);

/** The Node jest runs on: 22 (this one when it is 22, else the registry's package), or this one when 22 cannot be had. */
async function jestNode(): Promise<string> {
  if (process.versions.node.split('.')[0] === '22') return process.execPath;
  try {
    const node = await ensureNode22(say);
    say(`jest runs on Node.js 22 (${node.replace(`${process.cwd()}/`, '')}), the commands it tests on this Node ${process.version}`);
    return node;
  } catch (error) {
    say(`jest runs on this Node ${process.version}: Node.js 22 could not be had (${error instanceof Error ? error.message : String(error)})`);
    return process.execPath;
  }
}

async function main(): Promise<number> {
  const missing = missingPrerequisites(thisMachine());
  if (missing.length > 0) {
    process.stderr.write(report(missing));
    return 1;
  }
  const started = Date.now();
  const node = jestNode();
  const checks = Promise.all([
    staticCheck('the project', [TSC, '--noEmit', '-p', '.']),
    staticCheck('browser-sdk', [TSC, '--noEmit', '-p', 'browser-sdk']),
    staticCheck('style', [BIOME, 'check', '--colors=off', '.']),
  ]).then((results) => {
    const failed = results.filter((result) => result.code !== 0);
    for (const { project, output } of failed) {
      const what = project === 'style' ? 'style check (formatter and linter; npm run lint:fix mends most)' : `type check of ${project}`;
      process.stderr.write(`\n${what} failed:\n${output}\n`);
    }
    if (failed.length === 0) process.stdout.write(`type check of both projects and style check passed (${seconds(started)} s)\n`);
    return failed.length === 0;
  });
  try {
    // Synchronous (cdk synth is a child process): tsc goes on meanwhile.
    const kept = keptAssembly();
    process.stdout.write(`stack assembly ${kept.reused ? 'kept from an earlier synth of these sources' : `synthesized in ${seconds(started)} s`}\n`);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    await Promise.all([checks, node]);
    return 1;
  }
  const [typesPassed, jestCode] = await Promise.all([checks, node.then((path) => runJest(path, process.argv.slice(2)))]);
  if (!typesPassed) process.stderr.write('npm test failed: a static check found errors (printed above, after "type check of" or "style check")\n');
  return typesPassed ? jestCode : 1;
}

main().then((code) => {
  process.exitCode = code;
});
