/**
 * BSD process accounting as `dump-acct` prints it (Debian package acct): one line per exited process,
 * `comm|v3|utime|stime|etime|uid|gid|mem|io|pid|ppid|flags|exitcode|tty|start`, times in ticks of 1/100 s.
 * The kernel writes a record when a process's last thread exits, so the file is in exit order; a multithreaded
 * process carries the name of that last thread (a JVM shows as "GC Thread#0", Firefox as "JS Watchdog").
 */

/** One exited process. */
export interface ProcessRecord {
  /** Its line's position among the records: the order the processes exited in. */
  index: number;
  /** The name of its last thread, at most 15 characters. */
  comm: string;
  pid: number;
  /** Its parent when it exited: the reaper (usually 1) if the parent had gone first. */
  ppid: number;
  /** User plus system CPU, in seconds. */
  cpu: number;
  /** Wall time from start to exit, in seconds. */
  elapsed: number;
  /** When it started, in whole seconds of the clock dump-acct printed (local time read as UTC). */
  started: number;
  exitCode: number;
}

const TICKS_PER_SECOND = 100;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const START = /^\w{3} (\w{3}) +(\d{1,2}) (\d{2}):(\d{2}):(\d{2}) (\d{4})$/;

/** dump-acct's start column ("Sun Dec  6 15:15:39 2026") in seconds, or undefined when it reads otherwise. */
function startSeconds(text: string): number | undefined {
  const match = START.exec(text);
  if (!match) return undefined;
  const [, month, day, hours, minutes, seconds, year] = match;
  const monthIndex = MONTHS.indexOf(month as string);
  if (monthIndex < 0) return undefined;
  return Date.UTC(Number(year), monthIndex, Number(day), Number(hours), Number(minutes), Number(seconds)) / 1000;
}

/** The records of dump-acct's output, and how many lines were not records (left out, counted). */
export function parseDumpAcct(text: string): { records: ProcessRecord[]; skipped: number } {
  const records: ProcessRecord[] = [];
  let skipped = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const fields = line.split('|').map((field) => field.trim());
    const [comm, version, utime, stime, etime, , , , , pid, ppid, , exitCode, , start] = fields;
    const numbers = [utime, stime, etime, pid, ppid, exitCode].map(Number);
    const started = startSeconds(start ?? '');
    if (fields.length !== 15 || version !== 'v3' || numbers.some((value) => !Number.isFinite(value)) || started === undefined) {
      skipped++;
      continue;
    }
    const [user, system, wall, id, parent, code] = numbers as [number, number, number, number, number, number];
    records.push({
      index: records.length,
      comm: comm as string,
      pid: id,
      ppid: parent,
      cpu: (user + system) / TICKS_PER_SECOND,
      elapsed: wall / TICKS_PER_SECOND,
      started,
      exitCode: code,
    });
  }
  return { records, skipped };
}

/**
 * Each record's parent record (its index), or undefined when the parent is not in the file (it outlived the
 * recording, or exited before its child, which was then adopted). A parent outlives its children, so it is the
 * first record after the child's with the child's ppid as its pid: the one alive when the child exited, even
 * when the pid was used again later.
 */
export function parentsOf(records: readonly ProcessRecord[]): (number | undefined)[] {
  const parents: (number | undefined)[] = new Array(records.length);
  const nextWithPid = new Map<number, number>();
  for (let index = records.length - 1; index >= 0; index--) {
    const record = records[index] as ProcessRecord;
    parents[index] = nextWithPid.get(record.ppid);
    nextWithPid.set(record.pid, index);
  }
  return parents;
}
