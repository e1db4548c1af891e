import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/harness/ports';
import { scriptCommand } from '../../local/harness/scripts';

export const ROOT = join(__dirname, '..', '..');
/**
 * The node `npm run` would start the scripts with: the one `npm test` was started with (CONTACTS_TEST_COMMAND_NODE,
 * test/support/npm-test.ts), even when jest itself runs on Node 22; else this process's.
 */
export const NODE = process.env.CONTACTS_TEST_COMMAND_NODE || process.execPath;

/** A package script as `npm run` starts it, one process: the node, its options as package.json gives them (tsx's hooks), the file. */
export function commandLine(name: string): string[] {
  const { nodeOptions, entry } = scriptCommand(name);
  return [NODE, ...nodeOptions, entry];
}

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The file package.json runs for a command (`"keys": "node --require tsx/cjs local/console/commands/keys.ts"`). */
const entryOf = (name: string): string => scriptCommand(name).entry;

/**
 * Whether a script's entry file starts its run through local/harness/setup-error.ts's runMain (directly, or through
 * runCommand or runWithoutOptions), which is what runScriptInProcess waits on: a build script that runs at import and
 * exits is not.
 */
export const startsItsRunThroughRunMain = (name: string): boolean => /\brun(Command|Main|WithoutOptions)\(/.test(readFileSync(entryOf(name), 'utf8'));

/** A command's JSON-lines output (one object per line), parsed. */
export const jsonLines = (stdout: string): Record<string, any>[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Record<string, any>);

/** Runs a project command the way `npm run` does, and waits for it. */
export function runScript(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const [node, ...rest] = commandLine(name) as [string, ...string[]];
    const child = spawn(node, [...rest, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** What a command's exit looks like inside this process: it stops the command where it called process.exit. */
class CommandExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

/** The emitters a command's entry file may listen on (stdout's EPIPE handler, say): what it adds goes with it. */
const EMITTERS: NodeJS.EventEmitter[] = [process, process.stdout, process.stderr];
type Listener = (...args: unknown[]) => void;
const listenersOf = (emitter: NodeJS.EventEmitter) => new Map(emitter.eventNames().map((event) => [event, emitter.rawListeners(event) as Listener[]] as const));

/**
 * Runs a project command's own entry file (the one package.json runs) inside
 * this process: the same parsing, calls, output and exit codes as
 * `runScript`, without a Node process and a TypeScript load each (about a
 * second apiece on a loaded 2-core machine). Each call loads the command's
 * modules afresh (`jest.isolateModules`: no client or cache of one call is
 * the next one's), with its own argv and environment; afterwards the
 * process state it touched (argv, env, exitCode, listeners) is put back.
 *
 * It ends as the process would: at the command's first process.exit(), or
 * when its main function has settled (`commandRun`, local/harness/setup-error.ts),
 * with process.exitCode or 0. What only a process shows (that nothing keeps
 * it running after its work, the exit code the shell sees) is each command
 * test file's one `runScript` call. A command that has done neither within
 * `timeoutMs` is a rejection.
 */
export function runScriptInProcess(name: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 30_000): Promise<CommandResult> {
  // argv, env, exit and the streams are the process's: one command at a time (a Promise.all of calls runs them in turn).
  const run = inProcessQueue.then(() => runInProcess(name, args, env, timeoutMs));
  inProcessQueue = run.then(
    () => undefined,
    () => undefined,
  );
  return run;
}
let inProcessQueue: Promise<void> = Promise.resolve();

async function runInProcess(name: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<CommandResult> {
  const entry = entryOf(name);
  const saved = { argv: process.argv, env: { ...process.env }, exitCode: process.exitCode, listeners: EMITTERS.map(listenersOf) };
  const output = { stdout: '', stderr: '' };
  let code: number | undefined;
  let exited!: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const capture =
    (stream: 'stdout' | 'stderr') =>
    (chunk: string | Uint8Array, ...rest: unknown[]) => {
      if (code === undefined) output[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
      // write(chunk, [encoding], callback): the callback says the chunk is out, as the stream would.
      const callback = rest.find((arg): arg is () => void => typeof arg === 'function');
      if (callback) process.nextTick(callback);
      return true;
    };
  const writes = [
    jest.spyOn(process.stdout, 'write').mockImplementation(capture('stdout')),
    jest.spyOn(process.stderr, 'write').mockImplementation(capture('stderr')),
  ];
  // The first exit ends the command (a throw where it called exit); what its error handlers do after that is not output.
  const exitSpy = jest.spyOn(process, 'exit').mockImplementation((status?: string | number | null) => {
    if (code !== undefined) return undefined as never;
    code = Number(status ?? 0);
    exited();
    throw new CommandExit(code);
  });
  let timer: NodeJS.Timeout | undefined;
  try {
    process.argv = [process.execPath, entry, ...args];
    process.exitCode = undefined;
    Object.assign(process.env, env);
    let run: Promise<void> | undefined;
    jest.isolateModules(() => {
      require(entry);
      // The run the entry file started, from the same fresh module registry.
      ({ commandRun: run } = require('../../local/harness/setup-error') as typeof import('../../local/harness/setup-error'));
    });
    if (!run) throw new Error(`${entry} started no run through runMain: nothing to wait for`);
    // A run that ends in process.exit rejects with CommandExit (its catch calls exit): `exit` has settled first.
    const done = run.then(
      () => {
        if (code === undefined) code = Number(process.exitCode ?? 0);
      },
      () => undefined,
    );
    await Promise.race([
      exit,
      done,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${name} ${args.join(' ')} did not end within ${timeoutMs} ms`)), timeoutMs))),
    ]);
    // The command's own error handlers run on from its exit (a catch that writes and exits again): let them finish
    // while exit and the streams are still this function's.
    await new Promise((resolve) => setImmediate(resolve));
    return { status: code ?? null, stdout: output.stdout, stderr: output.stderr };
  } finally {
    clearTimeout(timer);
    for (const spy of writes) spy.mockRestore();
    exitSpy.mockRestore();
    process.argv = saved.argv;
    process.exitCode = saved.exitCode;
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
    EMITTERS.forEach((emitter, index) => {
      for (const event of emitter.eventNames()) {
        const before = saved.listeners[index]?.get(event) ?? [];
        for (const listener of emitter.rawListeners(event) as Listener[]) if (!before.includes(listener)) emitter.removeListener(event, listener);
      }
    });
  }
}

/**
 * Starts a long-running project script; resolves once its output matches
 * `ready`. Not ready in `timeoutMs`: it is killed with all it started but
 * DynamoDB Local (`cdk synth` for --bundle, say; DynamoDB Local has a process
 * group of its own, which the tests stop by data folder), so a failing test
 * leaves nothing running. Keep `timeoutMs` under the test's own timeout.
 */
export function startScript(name: string, env: NodeJS.ProcessEnv, ready: RegExp, timeoutMs = 60_000, args: string[] = []) {
  const [node, ...rest] = commandLine(name) as [string, ...string[]];
  const child: ChildProcess = spawn(node, [...rest, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    // A process group of its own, to kill it with its children.
    detached: true,
  });
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => (output.stdout += chunk));
  child.stderr?.on('data', (chunk) => (output.stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const started = new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        // gone meanwhile
      }
      reject(new Error(`not ready in ${timeoutMs} ms:\n${output.stdout}\n${output.stderr}`));
    }, timeoutMs);
    const check = () => {
      const match = output.stdout.match(ready);
      if (match) {
        clearTimeout(timer);
        resolve(match);
      }
    };
    child.stdout?.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before ready:\n${output.stdout}\n${output.stderr}`));
    });
  });
  return { child, output, exited, started };
}

/**
 * True while that process runs. One that has exited but is not yet reaped (a
 * zombie, as an orphan stays until init collects it) is gone: signal 0 would
 * still find it.
 */
export { isRunning as isAlive } from '../../local/harness/processes';

/** Pids of running DynamoDB Local java processes whose command line mentions `needle`. */
export function dynamoDbLocalPids(needle: string): number[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .filter((line) => line.includes('DynamoDBLocal.jar') && line.includes(needle))
    .map((line) => Number(line.trim().split(/\s+/)[0]));
}

/** A fresh data folder and free ports for one `npm start`, its servers registered in `serversDir`. */
export async function serverEnv(serversDir: string): Promise<NodeJS.ProcessEnv & { CONTACTS_DATA_DIR: string }> {
  return {
    DYNAMODB_ENDPOINT: '',
    // Its own embedded S3 store for source maps too, under its data folder.
    S3_ENDPOINT: '',
    // A store of its own: its own tally (the run's reads the run's store only).
    CONTACTS_STREAMS: 'on',
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    CONTACTS_DATA_DIR: mkdtempSync(join(tmpdir(), 'contacts-data-')),
    CONTACTS_SERVERS_DIR: serversDir,
  };
}

/** `npm start` with that environment, once it listens; `stop()` ends it with SIGTERM and waits. */
export async function startServer(env: NodeJS.ProcessEnv) {
  const run = startScript('start', env, /Contacts API listening on (http:\/\/localhost:\d+)/, 90_000);
  const [, baseUrl] = await run.started;
  return {
    ...run,
    baseUrl: baseUrl as string,
    stop: async () => {
      if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGTERM');
      return run.exited;
    },
  };
}
