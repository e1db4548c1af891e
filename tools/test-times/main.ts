/**
 * `npm run test-times`: the slowest test files of the last jest runs of this checkout, from the durations
 * jest keeps in its cache (one perf-cache file per project; what its sequencer reads), with each project's
 * total. What test/support/sequencer.js's SLOW_FILES should list, and where `npm test`'s time goes
 * (docs/development.md#where-the-time-goes), without another run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { fileTimes, type FileTime } from './file-times';

const USAGE = `usage: npm run test-times [-- --top <N>] [--root <checkout>] [--jest-cache <folder>]

Prints the N slowest test files (default 30) of the last jest runs of the
checkout (this one unless --root), in seconds, from jest's cache (its
perf-cache files; the default folder is jest's own, under the system's
temporary folder), and the total per cache file (one per jest project).`;

/** Jest's default cache folders: /tmp/jest_<n> (jest-config names it after the user's id, or 0). */
function defaultCacheFolders(): string[] {
  return readdirSync(tmpdir())
    .filter((name) => /^jest_/.test(name))
    .map((name) => join(tmpdir(), name));
}

function perfCaches(folders: string[]): Record<string, unknown>[] {
  return folders.flatMap((folder) =>
    readdirSync(folder)
      .filter((name) => name.startsWith('perf-cache-'))
      .map((name) => JSON.parse(readFileSync(join(folder, name), 'utf8')) as Record<string, unknown>),
  );
}

const seconds = (ms: number) => (ms / 1000).toFixed(1).padStart(7);

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { top: { type: 'string' }, root: { type: 'string' }, 'jest-cache': { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const top = positiveIntArg('--top', values.top as string | undefined, 1000) ?? 30;
  const root = (values.root as string | undefined) ?? join(__dirname, '..', '..');
  const folders = values['jest-cache'] ? [values['jest-cache'] as string] : defaultCacheFolders();
  const { files, projects } = fileTimes(perfCaches(folders), root);
  if (files.length === 0) {
    console.log(`no jest durations for ${root} in ${folders.join(', ') || 'no cache folder'}: run jest there first`);
    return;
  }
  const total = files.reduce((sum, file: FileTime) => sum + file.ms, 0);
  console.log(`${files.length} files, ${seconds(total).trim()} s of file time (two workers: about ${Math.round(total / 2000)} s of jest's time)`);
  for (const project of projects) console.log(`${seconds(project.ms)} s  ${project.files} files, e.g. ${project.example}`);
  console.log('');
  for (const file of files.slice(0, top)) console.log(`${seconds(file.ms)} s  ${file.path}${file.failed ? '  (failed)' : ''}`);
});
