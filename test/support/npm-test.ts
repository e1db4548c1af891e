/**
 * `npm test` in one process (package.json; arguments after `--` go to jest):
 * 1. the prerequisites check (test/support/prerequisites.ts), which stops here with the line to run when something
 *    is missing, before anything starts;
 * 2. the type check of both projects (`tsc --noEmit -p .` and `-p browser-sdk`) and, beside it, the stack's synth
 *    that the bundled-asset files, `npm start --bundle`'s test and the stack's bundle tests read
 *    (local/bundle/assembly-cache.ts);
 * 3. once the synth is kept, the one jest run (jest.npm-test.config.js), while tsc finishes. tsc runs on one core
 *    and ends some 8 s after the synth: the tests take that idle core instead of waiting for it
 *    (docs/development.md#where-the-time-goes).
 * A type error is printed as soon as tsc ends and fails `npm test` (exit code 1) whatever the tests do; the run is
 * not cut short, so it stops its DynamoDB Local and checks that nothing is left running, as every run does.
 * A failed synth starts no test.
 */
import { spawn } from 'node:child_process';
import { keptAssembly } from '../../local/bundle/assembly-cache';
import { missingPrerequisites, report, thisMachine } from './prerequisites';

const TSC = require.resolve('typescript/bin/tsc');
const JEST = require.resolve('jest/bin/jest');

/** What a type check printed, and its exit code (1 when it could not start). */
interface Checked {
  project: string;
  code: number;
  output: string;
}

/** tsc on one project, its output kept: printed at once would cut through jest's. */
function typeCheck(project: string): Promise<Checked> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [TSC, '--noEmit', '-p', project], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', (error) => resolve({ project, code: 1, output: error.message }));
    child.once('close', (code) => resolve({ project, code: code ?? 1, output }));
  });
}

/** The one jest run, on this terminal; its exit code. */
function runJest(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    // The workers' 64 MB semi-space: fewer scavenges (docs/development.md#where-the-time-goes).
    const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --max-semi-space-size=64`.trim() };
    const child = spawn(process.execPath, [JEST, '-c', 'jest.npm-test.config.js', ...args], { stdio: 'inherit', env });
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

const seconds = (since: number) => Math.round((Date.now() - since) / 1000);

async function main(): Promise<number> {
  const missing = missingPrerequisites(thisMachine());
  if (missing.length > 0) {
    process.stderr.write(report(missing));
    return 1;
  }
  const started = Date.now();
  const checks = Promise.all([typeCheck('.'), typeCheck('browser-sdk')]).then((results) => {
    const failed = results.filter((result) => result.code !== 0);
    for (const { project, output } of failed) process.stderr.write(`\ntype check of ${project === '.' ? 'the project' : project} failed:\n${output}\n`);
    if (failed.length === 0) process.stdout.write(`type check of both projects passed (${seconds(started)} s)\n`);
    return failed.length === 0;
  });
  try {
    // Synchronous (cdk synth is a child process): tsc goes on meanwhile.
    const kept = keptAssembly();
    process.stdout.write(`stack assembly ${kept.reused ? 'kept from an earlier synth of these sources' : `synthesized in ${seconds(started)} s`}\n`);
  } catch (error) {
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    await checks;
    return 1;
  }
  const [typesPassed, jestCode] = await Promise.all([checks, runJest(process.argv.slice(2))]);
  if (!typesPassed) process.stderr.write('npm test failed: the type check found errors (printed above, after "type check of")\n');
  return typesPassed ? jestCode : 1;
}

main().then((code) => {
  process.exitCode = code;
});
