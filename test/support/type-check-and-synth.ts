/**
 * The step of `npm test` before jest, in one process: the prerequisites check (test/support/prerequisites.ts,
 * which stops here with the line to run when something is missing), then the type check of both projects (`tsc
 * --noEmit -p .` and `-p browser-sdk`) and, beside it, the stack's synth that
 * the bundled-asset run, `npm start --bundle`'s test and the stack's bundle
 * tests read (local/bundle/assembly-cache.ts). tsc runs on one core and the
 * synth mostly on the other, so the synth costs `npm test` little here,
 * where inside jest it would take CPU from the test files
 * (docs/development.md#where-the-time-goes). Exit code 1 when either fails.
 */
import { spawn } from 'node:child_process';
import { keptAssembly } from '../../local/bundle/assembly-cache';
import { missingPrerequisites, report, thisMachine } from './prerequisites';

const TSC = require.resolve('typescript/bin/tsc');

/** A child's exit code (1 when it could not start), after it has printed to this terminal. */
function run(args: string[]): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, { stdio: 'inherit' });
    child.once('error', () => resolve(1));
    child.once('exit', (code) => resolve(code ?? 1));
  });
}

async function main(): Promise<number> {
  // First what the suite needs (test/support/prerequisites.ts): one line to run per missing piece, before anything starts.
  const missing = missingPrerequisites(thisMachine());
  if (missing.length > 0) {
    process.stderr.write(report(missing));
    return 1;
  }
  const started = Date.now();
  const checks = Promise.all([run([TSC, '--noEmit', '-p', '.']), run([TSC, '--noEmit', '-p', 'browser-sdk'])]);
  let synthFailed = false;
  try {
    // Synchronous (cdk synth is a child process): tsc goes on meanwhile.
    const kept = keptAssembly();
    process.stdout.write(`stack assembly ${kept.reused ? 'kept from an earlier synth of these sources' : `synthesized in ${Math.round((Date.now() - started) / 1000)} s`}\n`);
  } catch (error) {
    synthFailed = true;
    process.stderr.write(`error: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  const codes = await checks;
  const typeErrors = codes.some((code) => code !== 0);
  if (!typeErrors) process.stdout.write(`type check of both projects passed (${Math.round((Date.now() - started) / 1000)} s with the synth)\n`);
  return typeErrors || synthFailed ? 1 : 0;
}

main().then((code) => {
  process.exitCode = code;
});
