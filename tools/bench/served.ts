/**
 * What the benchmarks that drive a running `npm start` share (the storm, the
 * CPU per event): a child process started until it says it is ready and
 * stopped with its whole group, a worktree of an earlier commit to run the
 * design before beside this one, one POST from a visitor's own address, and
 * a process tree's CPU time read from /proc.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../local/harness/cli';
import { PROJECT_ROOT } from '../../local/harness/paths';

/** Runs a child process (its own process group) until `ready` shows on its stdout; answers the match. */
export function startChild(
  command: string,
  args: string[],
  options: {
    cwd: string;
    env: NodeJS.ProcessEnv;
    ready: RegExp;
    timeoutMs: number /** Where its output goes once it is ready (dropped without). */;
    log?: (text: string) => void;
  },
) {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let matched = false;
  const ready = new Promise<RegExpMatchArray>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`${args.join(' ')} not ready in ${options.timeoutMs} ms:\n${output.slice(-2000)}`)), options.timeoutMs);
    const look = (chunk: Buffer) => {
      // Once ready, its output (a log line per request) is read, and dropped unless logged: a full pipe would stop it.
      if (matched) return options.log?.(chunk.toString());
      output += chunk.toString();
      const match = options.ready.exec(output);
      if (match) {
        matched = true;
        clearTimeout(timer);
        resolvePromise(match);
      }
    };
    child.stdout?.on('data', look);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (matched) options.log?.(chunk.toString());
      else output += chunk.toString();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${args.join(' ')} exited (${code}) before it was ready:\n${output.slice(-2000)}`));
    });
  });
  return { child, ready };
}

/** Stops a child started by startChild and everything in its group: SIGTERM, then SIGKILL after 15 s. */
export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolvePromise) => child.on('exit', resolvePromise));
  process.kill(-(child.pid as number), 'SIGTERM');
  const timer = setTimeout(() => {
    try {
      process.kill(-(child.pid as number), 'SIGKILL');
    } catch {
      // gone
    }
  }, 15_000);
  await exited;
  clearTimeout(timer);
}

/**
 * A worktree of `ref` beside this project, its node_modules this project's
 * (the design before needs nothing this one lacks); `prepare` may edit it
 * (the worktree only) before it runs.
 */
export function worktreeOf(ref: string, prepare?: (root: string) => void): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), 'bench-baseline-'));
  rmSync(root, { recursive: true, force: true });
  const added = spawnSync('git', ['worktree', 'add', '--detach', root, ref], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  if (added.status !== 0) throw new UsageError(`--baseline ${ref}: git worktree add failed: ${added.stderr.trim()}`);
  const remove = () => {
    spawnSync('git', ['worktree', 'remove', '--force', root], { cwd: PROJECT_ROOT });
    if (existsSync(root)) rmSync(root, { recursive: true, force: true });
  };
  try {
    symlinkSync(join(PROJECT_ROOT, 'node_modules'), join(root, 'node_modules'));
    prepare?.(root);
  } catch (error) {
    remove();
    throw error;
  }
  return { root, remove };
}

/** The commit `ref` names, short, for a report (the ref itself when git does not know it). */
export function commitOf(ref: string): string {
  const found = spawnSync('git', ['rev-parse', '--short', ref], { cwd: PROJECT_ROOT, encoding: 'utf8' });
  return found.status === 0 ? found.stdout.trim() : ref;
}

/** The i-th visitor's address on loopback: each a client of its own to the per-address limiter. */
export const visitorAddress = (i: number): string => `127.${1 + (Math.floor(i / 62_500) % 254)}.${Math.floor(i / 250) % 250}.${1 + (i % 250)}`;

/** One answer to a POST: its status (undefined: no answer in time), its headers of interest and its body's start. */
export interface Posted {
  status: number | undefined;
  ms: number;
  retryAfter: string | null;
  rateLimits: string | null;
  /** The first 2,000 characters of the body. */
  text: string;
}

/** One POST from `localAddress` on a connection of its own, as a visitor's page sends it. */
export function postFrom(url: string, headers: Record<string, string>, body: string, localAddress: string, timeoutMs: number): Promise<Posted> {
  const started = performance.now();
  return new Promise((resolvePromise) => {
    const req = httpRequest(
      url,
      { method: 'POST', localAddress, agent: false, headers: { ...headers, 'Content-Length': String(Buffer.byteLength(body)) }, timeout: timeoutMs },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += text.length < 2_000 ? chunk.toString() : ''));
        const header = (name: string) => (typeof res.headers[name] === 'string' ? (res.headers[name] as string) : null);
        res.on('end', () =>
          resolvePromise({
            status: res.statusCode,
            ms: performance.now() - started,
            retryAfter: header('retry-after'),
            rateLimits: header('x-sentry-rate-limits'),
            text,
          }),
        );
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', () => resolvePromise({ status: undefined, ms: performance.now() - started, retryAfter: null, rateLimits: null, text: '' }));
    req.end(body);
  });
}

/** Clock ticks per second of /proc's CPU times (getconf CLK_TCK; 100 on Linux almost everywhere). */
function clockTicks(): number {
  const asked = spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' });
  const ticks = Number(asked.stdout?.trim());
  return Number.isFinite(ticks) && ticks > 0 ? ticks : 100;
}
let ticksPerSecond: number | undefined;

/** A process's own user and system time and its parent, from /proc/<pid>/stat (undefined once it is gone). */
function statOf(pid: number): { ppid: number; ticks: number; reapedTicks: number } | undefined {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  // The command name may hold spaces and parentheses: fields are counted after its closing one.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  const at = (field: number) => Number(fields[field - 3]);
  return { ppid: at(4), ticks: at(14) + at(15), reapedTicks: at(16) + at(17) };
}

/**
 * The CPU milliseconds a process and its descendants have used so far (user
 * and system; the children it has reaped included): read before and after
 * a workload, the difference is what the workload cost the process tree.
 */
export function treeCpuMs(rootPid: number): number {
  ticksPerSecond ??= clockTicks();
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const stat = statOf(Number(name));
    if (stat) parents.set(Number(name), stat.ppid);
  }
  const inTree = (pid: number): boolean => {
    for (let at: number | undefined = pid, hops = 0; at !== undefined && at > 1 && hops < 64; at = parents.get(at), hops += 1) if (at === rootPid) return true;
    return false;
  };
  let ticks = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    const stat = statOf(pid);
    // A live process's reaped children are gone from /proc: their time is only in its own count of them.
    if (stat) ticks += stat.ticks + stat.reapedTicks;
  }
  return (ticks * 1000) / ticksPerSecond;
}
