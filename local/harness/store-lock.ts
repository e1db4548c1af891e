import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRunning, waitUntilGone } from './processes';
import { SetupError } from './setup-error';

/**
 * Who serves the local store right now: written by `npm start` (and by a
 * `keys`/`enrich` command that had to start DynamoDB Local itself) into the
 * data folder, removed when it stops. Lets the commands reach the very store
 * a running `npm start` uses, whatever its ports, with no flags.
 */
export interface StoreLock {
  /** The node process serving: while it lives, the store is in use. */
  serverPid: number;
  /** The DynamoDB Local it started, if any. */
  javaPid?: number;
  endpoint: string;
  command: string;
}

const lockFile = (dataDir: string) => join(dataDir, 'store.json');

/** True when `pid` is a DynamoDB Local running on `dataDir`. */
function isOurDynamoDbLocal(pid: number, dataDir: string): boolean {
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    return cmdline.some((arg) => arg.endsWith('DynamoDBLocal.jar')) && cmdline.includes(dataDir);
  } catch {
    return false;
  }
}

function readLock(dataDir: string): StoreLock | undefined {
  try {
    return JSON.parse(readFileSync(lockFile(dataDir), 'utf8')) as StoreLock;
  } catch {
    return undefined;
  }
}

/** How long a DynamoDB Local gets to exit after SIGKILL before we say it would not. */
const KILL_WAIT_MS = 10_000;

/**
 * The live server of this data folder, if any. A lock whose server died
 * (killed with SIGKILL, say) is cleaned up, and a DynamoDB Local it left
 * running on this folder is stopped: nobody else can be using it. "Stopped"
 * is said once it has exited; one that outlives SIGKILL is a SetupError.
 */
export async function liveStore(dataDir: string, say: (line: string) => void = () => undefined): Promise<StoreLock | undefined> {
  const lock = readLock(dataDir);
  if (!lock) return undefined;
  if (isRunning(lock.serverPid)) return lock;
  const orphan = lock.javaPid;
  if (orphan !== undefined && isOurDynamoDbLocal(orphan, dataDir)) {
    try {
      process.kill(-orphan, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
    if (!(await waitUntilGone(orphan, KILL_WAIT_MS))) {
      throw new SetupError(
        `the DynamoDB Local (pid ${orphan}) left running on ${dataDir} by an earlier ${lock.command} still runs ${KILL_WAIT_MS / 1000} s after SIGKILL: stop it (kill -9 ${orphan}), then try again`,
      );
    }
    say(`stopped the DynamoDB Local (pid ${orphan}) left running by an earlier ${lock.command} that was killed`);
  }
  rmSync(lockFile(dataDir), { force: true });
  return undefined;
}

export function writeLock(dataDir: string, lock: StoreLock): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(lockFile(dataDir), `${JSON.stringify(lock)}\n`);
}

/** Removes the lock if it is still this process's. */
export function removeLock(dataDir: string): void {
  if (readLock(dataDir)?.serverPid === process.pid) rmSync(lockFile(dataDir), { force: true });
}
