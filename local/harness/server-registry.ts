import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SERVERS_DIR } from './paths';
import { isRunning, startTimeOf } from './processes';

/**
 * The running `npm start` servers of this project, whatever data folder
 * each uses: every server writes a file named after its pid into
 * SERVERS_DIR while it runs. The operator commands read it to find the store
 * they should work on (store.ts, connectStore).
 */
export interface RunningServer {
  pid: number;
  /** When that process started (Linux): a pid reused after a crash is not taken for the server. */
  startTime?: string;
  /** Its data folder (absolute), where its store lock is. */
  dataDir: string;
  /** The DynamoDB it serves. */
  endpoint: string;
  /** Its API's base URL. */
  api: string;
  /** Its source maps store (S3_ENDPOINT and SOURCE_MAPS_BUCKET as its functions read them), once started. */
  maps?: { S3_ENDPOINT: string; SOURCE_MAPS_BUCKET: string };
}

const entryFile = (pid: number) => join(SERVERS_DIR, `${pid}.json`);

/** Registers this process as a running server until unregisterServer() (or its death). */
export function registerServer(server: Pick<RunningServer, 'dataDir' | 'endpoint' | 'api' | 'maps'>): void {
  mkdirSync(SERVERS_DIR, { recursive: true });
  const entry: RunningServer = { pid: process.pid, startTime: startTimeOf(process.pid), ...server };
  // Written aside, then renamed: a reader sees the whole entry or none.
  const partial = `${entryFile(process.pid)}.partial`;
  writeFileSync(partial, `${JSON.stringify(entry)}\n`);
  renameSync(partial, entryFile(process.pid));
}

export function unregisterServer(): void {
  rmSync(entryFile(process.pid), { force: true });
}

function readEntry(file: string): RunningServer | undefined {
  try {
    return JSON.parse(readFileSync(join(SERVERS_DIR, file), 'utf8')) as RunningServer;
  } catch {
    return undefined;
  }
}

const stillRunning = (server: RunningServer) => isRunning(server.pid) && (server.startTime === undefined || server.startTime === startTimeOf(server.pid));

/** The registered servers that still run; the entries of those that died (kill -9) are removed. */
export function runningServers(): RunningServer[] {
  let files: string[];
  try {
    files = readdirSync(SERVERS_DIR).filter((file) => /^\d+\.json$/.test(file));
  } catch {
    return [];
  }
  const running: RunningServer[] = [];
  for (const file of files) {
    const server = readEntry(file);
    if (server && stillRunning(server)) running.push(server);
    else if (server) rmSync(join(SERVERS_DIR, file), { force: true });
  }
  return running.sort((a, b) => a.pid - b.pid);
}
