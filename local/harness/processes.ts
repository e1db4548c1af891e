import { existsSync, readFileSync } from 'node:fs';

/**
 * Whether a process still runs, as the local commands need to know it.
 * On Linux, /proc tells a running process from one that has exited but
 * is not yet reaped (a zombie: no memory, no ports, no open files, only
 * its table entry, which an orphan keeps until init collects it, on some
 * machines seconds later). Elsewhere, signal 0 answers.
 */
const PROC = existsSync('/proc/self/stat');

/** The fields of /proc/<pid>/stat after the command name (which may hold spaces and parentheses). */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** True while `pid` runs: not when it never existed, has exited, or is an unreaped zombie. */
export function isRunning(pid: number): boolean {
  if (PROC) {
    const state = statFields(pid)?.[0];
    return state !== undefined && state !== 'Z' && state !== 'X';
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When `pid` started (clock ticks since boot; Linux only): with the pid, it
 * names one process, so a pid reused by another after a crash is not taken
 * for the process that wrote it down.
 */
export function startTimeOf(pid: number): string | undefined {
  // Field 22 of stat; statFields starts at field 3.
  return statFields(pid)?.[19];
}

/** Waits until `pid` has exited, up to `timeoutMs`; false if it still runs then. */
export async function waitUntilGone(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isRunning(pid)) {
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return true;
}
