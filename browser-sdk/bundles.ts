/**
 * How the SDK is bundled (esbuild), shared by build.ts and size.ts so that
 * the size measured is the size shipped:
 * - index.js: ESM for bundlers, not minified (the application's bundler does that);
 * - contacts-ingest.min.js: one minified IIFE for a <script> tag, which
 *   defines `window.ContactsIngest` and nothing else.
 */
import { build, type BuildOptions } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const SDK_DIR = fileURLToPath(new URL('.', import.meta.url));
export const ENTRY = join(SDK_DIR, 'src', 'index.ts');
/** The one-file build's name, as package.json's "unpkg" names it (dist/<this>). */
export const SCRIPT_FILE = 'contacts-ingest.min.js';
/** The one-file build's budget, gzipped. */
export const GZIP_BUDGET_BYTES = 5 * 1024;

const version = (): string => (JSON.parse(readFileSync(join(SDK_DIR, 'package.json'), 'utf8')) as { version: string }).version;

const common = (): BuildOptions => ({
  entryPoints: [ENTRY],
  bundle: true,
  platform: 'browser',
  // Browsers of the last few years: keeps ??, ?. and classes as they are (smaller).
  target: ['es2020'],
  legalComments: 'none',
  logLevel: 'error',
  banner: { js: `/* @contacts-service/browser ${version()} */` },
});

export const esmOptions = (outfile: string): BuildOptions => ({ ...common(), outfile, format: 'esm' });

export const scriptOptions = (outfile: string): BuildOptions => ({ ...common(), outfile, format: 'iife', globalName: 'ContactsIngest', minify: true });

/** The package's bin (package.json "bin"): source maps' inject and upload for a customer's CI, Node built-ins only. */
export const CLI_FILE = 'sourcemaps-cli.js';

export const cliOptions = (outfile: string): BuildOptions => ({
  entryPoints: [join(SDK_DIR, 'cli', 'main.ts')],
  bundle: true,
  platform: 'node',
  target: ['node18'],
  format: 'esm',
  outfile,
  legalComments: 'none',
  logLevel: 'error',
  // Nothing outside Node itself may be left to resolve at run time: the package has no dependencies.
  packages: 'bundle',
  banner: { js: `#!/usr/bin/env node\n/* @contacts-service/browser ${version()} sourcemaps */` },
});

/** The bundles and the bin into `dir`. */
export async function bundle(dir: string): Promise<void> {
  await build(esmOptions(join(dir, 'index.js')));
  await build(scriptOptions(join(dir, SCRIPT_FILE)));
  await build(cliOptions(join(dir, CLI_FILE)));
}

/** The one-file build's text, built in memory. */
export async function scriptText(): Promise<string> {
  const result = await build({ ...scriptOptions(join(SDK_DIR, 'dist', SCRIPT_FILE)), write: false });
  const [file] = result.outputFiles ?? [];
  if (!file) throw new Error('esbuild wrote no file');
  return file.text;
}

/** The one-file build's sizes: minified, and gzipped at level 9. */
export async function measureScript(): Promise<{ bytes: number; gzipBytes: number }> {
  const text = await scriptText();
  return { bytes: Buffer.byteLength(text), gzipBytes: gzipSync(text, { level: 9 }).length };
}
