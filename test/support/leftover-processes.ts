import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { isRunning } from '../../local/harness/processes';

/**
 * A test run must leave no process behind: no DynamoDB Local, no `npm start`,
 * no server of the bundled asset. Every process the run starts carries
 * RUN_MARK in its environment (set by the global setup, inherited by the
 * workers and by everything they spawn, DynamoDB Local included), or runs in
 * a folder of the run (the bundled asset's server gets a bare environment).
 * The global teardowns look for such processes still running.
 */
export const RUN_MARK = 'CONTACTS_TEST_RUN';

/** Marks this run: called by the global setup, before anything is started. */
export function markRun(): void {
  process.env[RUN_MARK] = randomUUID();
}

interface Leftover {
  pid: number;
  command: string;
}

function read(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function cwdOf(pid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${pid}/cwd`);
  } catch {
    return undefined;
  }
}

/** The processes of this run that still run, other than this one. */
function leftovers(run: string, folders: string[]): Leftover[] {
  const mark = `${RUN_MARK}=${run}`;
  const found: Leftover[] = [];
  for (const entry of readdirSync('/proc')) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid || !isRunning(pid)) continue;
    const marked = read(`/proc/${pid}/environ`)?.split('\0').includes(mark) ?? false;
    const cwd = cwdOf(pid);
    const inFolder = cwd !== undefined && folders.some((folder) => cwd === folder || cwd.startsWith(`${folder}/`));
    if (!marked && !inFolder) continue;
    const command = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ').trim();
    // A worker of this very jest run, if one is still winding down, is not a leftover.
    if (command.includes('jest-worker')) continue;
    found.push({ pid, command: command.length > 300 ? `${command.slice(0, 300)}…` : command });
  }
  return found;
}

/**
 * Fails the run, naming them, when processes it started still run: after a
 * grace of a few seconds (a process told to stop may still be exiting), each
 * one left is killed, so the failing run leaves nothing behind either.
 */
export async function assertNoProcessLeft(options: { run?: string; folders?: string[]; graceMs?: number } = {}): Promise<void> {
  const { run = process.env[RUN_MARK], folders = [], graceMs = 5000 } = options;
  if (!existsSync('/proc/self/environ') || !run) {
    process.stdout.write('\n(no /proc or no run mark: the check for processes left behind did not run)\n');
    return;
  }
  const deadline = Date.now() + graceMs;
  let left = leftovers(run, folders);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
    left = leftovers(run, folders);
  }
  if (left.length === 0) return;
  for (const { pid } of left) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(
    `the test run left ${left.length} process(es) running (now killed):\n${left.map(({ pid, command }) => `  pid ${pid}: ${command}`).join('\n')}`,
  );
}
