import { mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from './commands';
import { until } from './until';

/**
 * `npm run sdk:build` once per jest run. The files that load the browser SDK
 * into pages (the SDK's browser tests, source maps, alerts) read the same
 * build: it is the same command on the same sources, and each build is about
 * 2 s of CPU (esbuild, then tsc for the declarations), six times in a run.
 * The run's global setup names a folder (SDK_BUILD_VARIABLE); the first file
 * to ask builds into it and says so with a marker, the others wait for the
 * marker. Outside such a run (one file under `npx jest -c ...` without the
 * global setup), each call builds on its own, as before.
 */
export const SDK_BUILD_VARIABLE = 'CONTACTS_TEST_SDK_BUILD_DIR';

export interface SdkBuild {
  /** dist/contacts-ingest.min.js: the one-file build a page loads with a script tag. */
  script: string;
  /** dist/index.js: the ES module. */
  esm: string;
}

const BUILT = 'built';
const FAILED = 'failed';
const WAIT_MS = 120_000;

/** `npm run sdk:build -- --out <dir>`, throwing with its output if it fails. */
async function buildInto(out: string): Promise<SdkBuild> {
  const run = await runScript('sdk:build', ['--out', out]);
  if (run.status !== 0) throw new Error(`npm run sdk:build failed:\n${run.stdout}${run.stderr}`);
  return { script: readFileSync(join(out, 'contacts-ingest.min.js'), 'utf8'), esm: readFileSync(join(out, 'index.js'), 'utf8') };
}

/** Whether this caller is the first of the run: mkdir is atomic, so exactly one caller makes the claim. */
function claim(folder: string): boolean {
  try {
    mkdirSync(join(folder, 'claim'));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/** Written whole, then renamed: a reader never sees half a marker. */
function mark(folder: string, name: string, text: string): void {
  writeFileSync(join(folder, `${name}.tmp`), text);
  renameSync(join(folder, `${name}.tmp`), join(folder, name));
}

function marker(folder: string, name: string): string | undefined {
  try {
    return readFileSync(join(folder, name), 'utf8');
  } catch {
    return undefined;
  }
}

/** The run's build, made by another file: waits for its marker. */
function awaitBuild(folder: string): Promise<SdkBuild> {
  return until(
    "the run's npm run sdk:build, made by another test file",
    () => {
      const failed = marker(folder, FAILED);
      if (failed !== undefined) throw new Error(`the run's npm run sdk:build (made by another test file) failed:\n${failed}`);
      const built = marker(folder, BUILT);
      return built === undefined ? undefined : (JSON.parse(built) as SdkBuild);
    },
    WAIT_MS,
  );
}

/** The browser SDK as `npm run sdk:build` makes it: the run's one build, or a build of its own outside a run. */
export async function buildSdk(): Promise<SdkBuild> {
  const folder = process.env[SDK_BUILD_VARIABLE];
  if (!folder) {
    const out = mkdtempSync(join(tmpdir(), 'contacts-sdk-build-'));
    try {
      return await buildInto(out);
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  }
  if (!claim(folder)) return awaitBuild(folder);
  try {
    const build = await buildInto(join(folder, 'dist'));
    mark(folder, BUILT, JSON.stringify(build));
    return build;
  } catch (error) {
    mark(folder, FAILED, error instanceof Error ? error.message : String(error));
    throw error;
  }
}
