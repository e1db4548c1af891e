import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LINK_BASE } from '../../lambda/alerts/payload';
import { SERVERS_DIR } from './paths';
import { isRunning, startTimeOf } from './processes';

/**
 * The control rooms running on this machine on the local store
 * (`npm run control-room` without --stack), registered beside the
 * `npm start` servers (server-registry.ts) as `control-room-<pid>.json`, so
 * that an alert sent under `npm start` links to the control room that is
 * open, whatever its --port (docs/alerts.md#the-payload).
 */
interface ControlRoomEntry {
  pid: number;
  startTime?: string;
  /** Its base URL, `http://127.0.0.1:<port>`. */
  url: string;
}

const PREFIX = 'control-room-';
const entryFile = (pid: number) => join(SERVERS_DIR, `${PREFIX}${pid}.json`);

/** Registers this process's control room, at `url`, until unregisterControlRoom() (or its death). */
export function registerControlRoom(url: string): void {
  mkdirSync(SERVERS_DIR, { recursive: true });
  const entry: ControlRoomEntry = { pid: process.pid, startTime: startTimeOf(process.pid), url };
  // Written aside, then renamed: a reader sees the whole entry or none.
  const partial = `${entryFile(process.pid)}.partial`;
  writeFileSync(partial, `${JSON.stringify(entry)}\n`);
  renameSync(partial, entryFile(process.pid));
}

export function unregisterControlRoom(): void {
  rmSync(entryFile(process.pid), { force: true });
}

/** The URL of the control room started last among those still running; undefined when none runs. Entries of dead ones are removed. */
export function runningControlRoom(): string | undefined {
  let files: string[];
  try {
    files = readdirSync(SERVERS_DIR).filter((file) => file.startsWith(PREFIX) && file.endsWith('.json'));
  } catch {
    return undefined;
  }
  const running: { url: string; since: number }[] = [];
  for (const file of files) {
    const path = join(SERVERS_DIR, file);
    let entry: ControlRoomEntry;
    try {
      entry = JSON.parse(readFileSync(path, 'utf8')) as ControlRoomEntry;
    } catch {
      continue;
    }
    if (isRunning(entry.pid) && (entry.startTime === undefined || entry.startTime === startTimeOf(entry.pid))) {
      running.push({ url: entry.url, since: statSync(path).mtimeMs });
    } else rmSync(path, { force: true });
  }
  return running.sort((a, b) => b.since - a.since)[0]?.url;
}

/**
 * Where alert links point on this machine, read when each alert is made:
 * `ALERT_LINK_BASE` when set, else the running control room, else where
 * `npm run control-room` starts by default.
 */
export function localLinkBase(env: NodeJS.ProcessEnv = process.env): string {
  return env.ALERT_LINK_BASE || runningControlRoom() || DEFAULT_LINK_BASE;
}
