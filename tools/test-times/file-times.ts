/** One test file's duration in the last jest run that ran it. */
export interface FileTime {
  /** Relative to the checkout. */
  path: string;
  ms: number;
  failed: boolean;
}

/** One jest project's durations (one perf-cache file). */
export interface ProjectTime {
  files: number;
  ms: number;
  /** Its longest file, to tell the projects apart. */
  example: string;
}

/**
 * The durations of a checkout's files, longest first, from jest's perf-cache contents: each maps a test file's
 * absolute path to `[0 when it failed, else 1; milliseconds]` (@jest/test-sequencer's FAIL and SUCCESS; older jest:
 * the milliseconds alone). Entries of other
 * checkouts (the cache folder is the machine's) and of unknown shape are left out.
 */
export function fileTimes(caches: Record<string, unknown>[], root: string): { files: FileTime[]; projects: ProjectTime[] } {
  const prefix = `${root.replace(/\/+$/, '')}/`;
  const projects: ProjectTime[] = [];
  const files: FileTime[] = [];
  for (const cache of caches) {
    const own: FileTime[] = [];
    for (const [path, value] of Object.entries(cache)) {
      if (!path.startsWith(prefix)) continue;
      const [outcome, ms] = Array.isArray(value) ? value : [1, value];
      if (typeof ms !== 'number' || !Number.isFinite(ms)) continue;
      own.push({ path: path.slice(prefix.length), ms, failed: outcome === 0 });
    }
    if (own.length === 0) continue;
    own.sort((a, b) => b.ms - a.ms);
    projects.push({ files: own.length, ms: own.reduce((sum, file) => sum + file.ms, 0), example: own[0].path });
    files.push(...own);
  }
  return { files: files.sort((a, b) => b.ms - a.ms), projects: projects.sort((a, b) => b.ms - a.ms) };
}
