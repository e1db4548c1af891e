import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths';
import { synthesize } from './api-asset';

/**
 * One `cdk synth` per state of the sources. A synth bundles every function
 * with esbuild (about 11 s of wall time and 16 s of CPU on this two-core
 * machine, `/usr/bin/time npx cdk synth --quiet`; about half without the
 * template validation, which the kept synth skips); `npm start --bundle`, the
 * bundled-asset test run, the Node 22 run and the stack's bundle tests all
 * read the same assets, so the cloud assembly of one synth is kept under
 * node_modules/.cache (cleared by `npm ci`) and named by a hash of every
 * input the synth reads. A changed byte in any of them is a new name, hence
 * a new synth; nothing else decides whether a kept assembly is used.
 */

/** What the synth reads from the project: cdk.json's `watch` folders and the files that pin the app and its toolchain. */
export const SYNTH_INPUTS = {
  folders: ['bin', 'lib', 'lambda'],
  files: ['cdk.json', 'package.json', 'package-lock.json', 'tsconfig.json'],
} as const;

/** The variables bin/contacts.ts and the CDK CLI read into the assembly. */
export const SYNTH_VARIABLES = ['CDK_DEFAULT_ACCOUNT', 'CDK_DEFAULT_REGION', 'CDK_CONTEXT_JSON'] as const;

/** Where kept assemblies live, one folder per sources key. */
export const ASSEMBLY_CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'contacts-assembly');

/** Kept assemblies beyond this many (the newest stay) are removed: each is some 3 MB. */
const KEEP = 3;

/** Every file under `folder` (relative to `root`), sorted, so the key does not depend on the order a folder lists. */
function filesUnder(root: string, folder: string): string[] {
  const base = join(root, folder);
  if (!existsSync(base)) return [];
  return (readdirSync(base, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => statSync(join(base, name)).isFile())
    .map((name) => `${folder}/${name.split('\\').join('/')}`)
    .sort();
}

const nodeVersions = new Map<string, string>();

/**
 * The version of the Node.js a synth runs on: the first `node` on PATH, which
 * the cdk CLI (`#!/usr/bin/env node`) and cdk.json's app start, whatever Node
 * runs the caller (`npm test`'s jest runs on Node 22 beside a PATH whose node
 * may be 20). Asked once per PATH.
 */
export function synthNodeVersion(env: NodeJS.ProcessEnv = process.env): string {
  const path = env.PATH ?? '';
  let version = nodeVersions.get(path);
  if (version === undefined) {
    const run = spawnSync('node', ['--version'], { encoding: 'utf8', env: { PATH: path } });
    version = run.status === 0 ? run.stdout.trim() : 'no node on PATH';
    nodeVersions.set(path, version);
  }
  return version;
}

/**
 * The hash of everything a synth of `root` reads: each input file's path and
 * bytes (a missing one counts as absent), each SYNTH_VARIABLES value, and the
 * Node.js version it runs on (`npm run test:node22` synthesizes on Node.js 22,
 * as it says, not on the assembly of a Node.js 20 run).
 */
export function sourcesKey(root: string = PROJECT_ROOT, env: NodeJS.ProcessEnv = process.env, nodeVersion: string = synthNodeVersion(env)): string {
  const hash = createHash('sha256');
  const paths = [...SYNTH_INPUTS.folders.flatMap((folder) => filesUnder(root, folder)), ...SYNTH_INPUTS.files];
  for (const path of paths) {
    const file = join(root, path);
    const bytes = existsSync(file) ? readFileSync(file) : undefined;
    hash.update(`${path}\0${bytes === undefined ? 'absent' : bytes.length}\0`);
    if (bytes) hash.update(bytes);
  }
  for (const name of SYNTH_VARIABLES) hash.update(`${name}=${env[name] ?? '\0unset'}\0`);
  hash.update(`node=${nodeVersion}`);
  return hash.digest('hex');
}

/**
 * The synth whose assembly is kept: without aws-cdk-lib's template validation, which changes nothing in the
 * assembly but its report files and takes half of a synth's CPU. The stack's validation runs where it is the
 * point: test/cdk/stack.test.ts, test/cdk/nag.test.ts and `.ci/run`'s own `cdk synth`.
 */
const synthesizeForKeeping = (outdir: string) => synthesize(outdir, { validation: false });

export interface KeptAssembly {
  /** The cloud assembly folder: manifest.json, the templates, asset.<hash>/ folders. */
  dir: string;
  /** True when an earlier synth of the same sources made it; false when this call ran the synth. */
  reused: boolean;
  key: string;
}

export interface AssemblyOptions {
  root?: string;
  cacheDir?: string;
  env?: NodeJS.ProcessEnv;
  /** Runs the synth into an empty folder (by default the project's own `cdk synth`). */
  synth?: (outdir: string) => void;
}

/**
 * The cloud assembly of the sources as they are now: the kept one when an
 * earlier call synthesized the same sources, else a new synth, kept for the
 * next call. A synth goes to a scratch folder and is renamed into place only
 * once complete, so a reader never sees half an assembly, and two processes
 * synthesizing at once both end with the same folder. Sources that change
 * during the synth leave nothing kept under either key.
 */
export function keptAssembly(options: AssemblyOptions = {}): KeptAssembly {
  const { root = PROJECT_ROOT, cacheDir = ASSEMBLY_CACHE_DIR, env = process.env, synth = synthesizeForKeeping } = options;
  const key = sourcesKey(root, env);
  const dir = join(cacheDir, key);
  if (existsSync(join(dir, 'manifest.json'))) return { dir, reused: true, key };
  mkdirSync(cacheDir, { recursive: true });
  const scratch = mkdtempSync(join(cacheDir, `.synth-${key.slice(0, 12)}-`));
  try {
    synth(scratch);
    if (sourcesKey(root, env) !== key) {
      throw new Error('the sources changed while cdk synth ran: run the command again');
    }
    try {
      renameSync(scratch, dir);
    } catch (error) {
      // Another process kept the same sources' assembly first: theirs is as good.
      if (!existsSync(join(dir, 'manifest.json'))) throw error;
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
  pruneKept(cacheDir, dir);
  return { dir, reused: false, key };
}

/** Removes all but the KEEP newest kept assemblies (never `current`), and scratch folders of synths that died. */
function pruneKept(cacheDir: string, current: string): void {
  const entries = readdirSync(cacheDir)
    .map((name) => ({ name, path: join(cacheDir, name), mtimeMs: statSync(join(cacheDir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  const hourAgo = Date.now() - 3_600_000;
  const kept = entries.filter((entry) => !entry.name.startsWith('.'));
  for (const entry of kept.slice(KEEP)) if (entry.path !== current) rmSync(entry.path, { recursive: true, force: true });
  for (const entry of entries) if (entry.name.startsWith('.synth-') && entry.mtimeMs < hourAgo) rmSync(entry.path, { recursive: true, force: true });
}
