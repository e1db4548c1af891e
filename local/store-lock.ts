import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

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

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

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

/**
 * The live server of this data folder, if any. A lock whose server died
 * (killed with SIGKILL, say) is cleaned up, and a DynamoDB Local it left
 * running on this folder is stopped: nobody else can be using it.
 */
export function liveStore(dataDir: string, say: (line: string) => void = () => undefined): StoreLock | undefined {
  const lock = readLock(dataDir);
  if (!lock) return undefined;
  if (isAlive(lock.serverPid)) return lock;
  if (lock.javaPid !== undefined && isOurDynamoDbLocal(lock.javaPid, dataDir)) {
    try {
      process.kill(-lock.javaPid, 'SIGKILL');
      say(`stopped the DynamoDB Local (pid ${lock.javaPid}) left running by an earlier ${lock.command} that was killed`);
    } catch {
      // gone meanwhile
    }
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
