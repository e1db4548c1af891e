import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/ports';

export const ROOT = join(__dirname, '..', '..');
/** How package.json runs the scripts: node with tsx as a loader, one process. */
export const NODE_TS = [process.execPath, '--import', 'tsx'] as const;

export interface CommandResult {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** The file package.json runs for a command (`"keys": "node --import tsx local/commands/keys.ts"`). */
function entryOf(name: string): string {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const entry = /--import tsx (\S+\.ts)/.exec(scripts[name] ?? '')?.[1];
  if (!entry) throw new Error(`package.json runs no TypeScript file for "${name}"`);
  return join(ROOT, entry);
}

/** A command's JSON-lines output (one object per line), parsed. */
export const jsonLines = (stdout: string): Record<string, any>[] =>
  stdout.split('\n').filter(Boolean).map((line) => JSON.parse(line) as Record<string, any>);

/** Runs a project command the way `npm run` does, and waits for it. */
export function runScript(name: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<CommandResult> {
  return new Promise((resolve) => {
    const child = spawn(NODE_TS[0], [...NODE_TS.slice(1), entryOf(name), ...args], {
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

/**
 * Runs a project command's own entry file (the one package.json runs) inside
 * this process, for the checks of its arguments: the same parsing, messages
 * and exit codes as `runScript`, without a Node process and a TypeScript load
 * each (about a second apiece on a loaded 2-core machine). Resolves at the
 * command's process.exit(); a command that never calls it within `timeoutMs`
 * is a rejection (an argument error must end the command). Commands that do
 * their work keep going through `runScript`, end to end.
 */
export async function runScriptInProcess(name: string, args: string[], env: NodeJS.ProcessEnv = {}, timeoutMs = 10_000): Promise<CommandResult> {
  const entry = entryOf(name);
  const saved = { argv: process.argv, env: { ...process.env } };
  const output = { stdout: '', stderr: '' };
  let code: number | undefined;
  let exited!: () => void;
  const exit = new Promise<void>((resolve) => (exited = resolve));
  const capture = (stream: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
    if (code === undefined) output[stream] += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
    return true;
  };
  const writes = [jest.spyOn(process.stdout, 'write').mockImplementation(capture('stdout')), jest.spyOn(process.stderr, 'write').mockImplementation(capture('stderr'))];
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
    Object.assign(process.env, env);
    jest.isolateModules(() => {
      require(entry);
    });
    await Promise.race([
      exit,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${name} ${args.join(' ')} did not exit within ${timeoutMs} ms`)), timeoutMs))),
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
    for (const key of Object.keys(process.env)) if (!(key in saved.env)) delete process.env[key];
    Object.assign(process.env, saved.env);
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
  const child: ChildProcess = spawn(NODE_TS[0], [...NODE_TS.slice(1), entryOf(name), ...args], {
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
export { isRunning as isAlive } from '../../local/processes';

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
