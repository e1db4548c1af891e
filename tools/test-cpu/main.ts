/**
 * `npm run test-cpu`: where a test run's CPU went, by kind of process (jest's workers, its DynamoDB Local, each
 * `npm start`, the commands under test, each browser engine, the static checks…), from BSD process accounting
 * (Debian package acct). On a two-core machine that `npm test` keeps saturated, the suite's CPU, not its waits,
 * sets its wall time (docs/development.md#where-the-time-goes).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { SetupError } from '../../local/harness/setup-error';
import { parseDumpAcct } from './accounting';
import { type Breakdown, cpuByKind, findRoot, type Kind, KINDS, median, processTree, recordOfPid } from './cpu-by-kind';

const USAGE = `usage: npm run test-cpu -- --pacct <file> [--root <pid>] [--cores <N>] [--adopted]
       npm run test-cpu -- --record [--cores <N>] [--adopted] -- <command...>

Prints the CPU-seconds (user + system) of a run's process tree by kind of
process, the root's wall time and the floor its CPU sets on N cores (this
machine's by default).

--pacct   an accounting file (accton <file> to start, accton off to stop);
          the root is the outermost node process above jest's main process
          (npm test's npm), unless --root names its pid
--record  turns accounting on into a temporary file, runs the command, turns
          it off and reports on the command's tree (needs root; accounting is
          machine-wide: it ends whatever accounting was on)
--adopted also counts the processes init adopted while the root ran (a
          browser's zygote or forkserver, a killed npm start's server): the
          run's on a machine where nothing else ran; left out by default

e.g. npm run test-cpu -- --record -- npx jest test/lambda/kernel

Needs dump-acct and accton: Debian package acct (apt-get install acct).`;

const INSTALL = 'install the Debian package acct (apt-get install acct), which has accton and dump-acct';

function dumpAcct(file: string): string {
  try {
    return execFileSync('dump-acct', [file], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SetupError(`dump-acct is not installed: ${INSTALL}`);
    throw new SetupError(`dump-acct could not read ${file}: ${String((error as { stderr?: string }).stderr ?? error).trim()}`);
  }
}

function accton(arg: string): void {
  try {
    execFileSync('accton', [arg], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SetupError(`accton is not installed: ${INSTALL}`);
    throw new SetupError(`accton ${arg} failed (it needs root): ${String((error as { stderr?: Buffer }).stderr ?? error).trim()}`);
  }
}

/** Runs the command with accounting on; its pid and exit code. Ctrl-C reaches the command, and accounting still ends. */
async function record(file: string, command: string[]): Promise<{ pid: number; code: number }> {
  accton(file);
  const ignore = () => {};
  process.on('SIGINT', ignore);
  try {
    const child = spawn(command[0] as string, command.slice(1), { stdio: 'inherit' });
    return await new Promise((resolve, reject) => {
      child.on('error', (error) => reject(new SetupError(`could not run ${command[0]}: ${error.message}`)));
      child.on('exit', (code, signal) => resolve({ pid: child.pid as number, code: code ?? (signal ? 128 : 1) }));
    });
  } finally {
    accton('off');
    process.off('SIGINT', ignore);
  }
}

const ORDER: Kind[] = [
  'jestWorkers',
  'jestMain',
  'launcher',
  'dynamodbLocal',
  'testJvms',
  'npmStarts',
  'commands',
  'chromium',
  'firefox',
  'webkit',
  'xvfb',
  'staticChecks',
  'esbuild',
  'other',
];

const s = (value: number) => value.toFixed(1);

function print(breakdown: Breakdown, cores: number): void {
  const { root, jest } = breakdown;
  console.log(`root: pid ${root.pid} (${root.comm}), ${s(root.elapsed)} s of wall time, ${breakdown.processes} processes`);
  if (!jest) console.log('jest: no main node process in this tree');
  else if (jest.workerPids.length === 0) console.log(`jest: no workers; main process pid ${jest.mainPid} (jest in band, if it is jest)`);
  else console.log(`jest: main process pid ${jest.mainPid}, ${jest.workerPids.length} workers (pids ${jest.workerPids.join(', ')})`);
  console.log('');
  console.log(`${'CPU-seconds by kind'.padEnd(56)}${'processes'.padStart(10)}${'CPU s'.padStart(9)}${'%'.padStart(7)}`);
  for (const kind of ORDER) {
    const { processes, cpu } = breakdown.kinds[kind];
    if (processes === 0) continue;
    const share = breakdown.cpu > 0 ? (100 * cpu) / breakdown.cpu : 0;
    console.log(`${KINDS[kind].padEnd(56)}${String(processes).padStart(10)}${s(cpu).padStart(9)}${share.toFixed(1).padStart(7)}`);
  }
  console.log(`${'total'.padEnd(56)}${String(breakdown.processes).padStart(10)}${s(breakdown.cpu).padStart(9)}${'100.0'.padStart(7)}`);
  console.log('');
  const starts = breakdown.npmStarts;
  if (starts.length > 0) {
    console.log(
      `npm start trees: ${starts.length}, ${s(starts.reduce((sum, cpu) => sum + cpu, 0))} CPU-s, median ${s(median(starts))} (${s(Math.min(...starts))} to ${s(Math.max(...starts))})`,
    );
  }
  if (breakdown.commands.trees > 0) {
    console.log(
      `commands under test: ${breakdown.commands.trees} trees, ${breakdown.commands.nodeProcesses} node processes, ${s(breakdown.kinds.commands.cpu)} CPU-s`,
    );
  }
  const other = breakdown.otherNames.slice(0, 5).map((name) => `${name.comm} ${s(name.cpu)} (${name.processes})`);
  if (other.length > 0) console.log(`other, largest: ${other.join(', ')}`);
  console.log(`floor: ${s(breakdown.cpu)} CPU-s on ${cores} cores is at least ${s(breakdown.cpu / cores)} s of wall time (the root took ${s(root.elapsed)} s)`);
  const { orphans } = breakdown;
  if (orphans.processes > 0) {
    const kinds = orphans.byKind
      .slice(0, 5)
      .map((kind) => `${kind.kind} ${s(kind.cpu)}`)
      .join(', ');
    console.log(
      orphans.counted
        ? `counted with --adopted: ${orphans.processes} processes adopted by init while the root ran, ${s(orphans.cpu)} CPU-s (${kinds})`
        : `not counted: ${orphans.processes} processes adopted by init while the root ran, ${s(orphans.cpu)} CPU-s (${kinds}): their parent exited first, so the tree cannot say whose they were (--adopted counts them, for a machine where nothing else ran)`,
    );
  }
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    pacct: { type: 'string' },
    root: { type: 'string' },
    cores: { type: 'string' },
    record: { type: 'boolean' },
    adopted: { type: 'boolean' },
  });
  const cores = positiveIntArg('--cores', values.cores as string | undefined, 1024) ?? availableParallelism();
  let file = values.pacct as string | undefined;
  let rootPid = positiveIntArg('--root', values.root as string | undefined, 2 ** 22);
  let exitCode = 0;
  if (values.record) {
    if (file !== undefined || rootPid !== undefined) throw new UsageError('--record takes no --pacct or --root: it records the command it runs');
    if (positionals.length === 0) throw new UsageError('--record needs a command after "--", as in npm run test-cpu -- --record -- npm test');
    file = join(mkdtempSync(join(tmpdir(), 'test-cpu-')), 'pacct');
    // accton appends to a file that exists; it does not make one.
    writeFileSync(file, '', { mode: 0o600 });
    const run = await record(file, positionals);
    rootPid = run.pid;
    exitCode = run.code;
    console.log(`\n${positionals.join(' ')} exited with ${run.code}; accounting kept in ${file}\n`);
  } else {
    if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}" (a command goes after --record --)`);
    if (file === undefined) throw new UsageError('give --pacct <file> (an accounting file) or --record -- <command...>');
    if (!existsSync(file)) throw new SetupError(`no file ${file}: accton <file> writes one (accton needs the file to exist)`);
  }
  const { records, skipped } = parseDumpAcct(dumpAcct(file));
  if (skipped > 0) console.log(`${skipped} lines of dump-acct's output were not records and are left out`);
  const tree = processTree(records);
  const root = rootPid === undefined ? findRoot(tree) : recordOfPid(records, rootPid);
  if (root === undefined) {
    throw new SetupError(
      rootPid === undefined
        ? `no jest run in ${file} (${records.length} records): name the root with --root <pid>`
        : `no process ${rootPid} in ${file}: it had not exited when accounting stopped, or never ran while it was on`,
    );
  }
  print(cpuByKind(tree, root, { adopted: values.adopted === true }), cores);
  process.exitCode = exitCode;
});
