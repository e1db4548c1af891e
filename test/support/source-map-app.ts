import { buildSync, stop } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { debugIdSnippet } from '../../lambda/ingest/sourcemaps/debug-id-snippet';
import { type PageError, sourcesOfBuild, throwInPage } from '../../tools/storm/minified-app';

/**
 * A real app with the bug of issue 41 (`session.cart.items` read on a missing cart), built minified with the
 * repository's esbuild, twice: the second build adds an unrelated function, which makes the minifier name the
 * functions of the bug differently. Each build is injected as `sourcemaps inject` does it (docs/source-maps.md:
 * the registration line on top, `//# debugId=` at the end, the map's lines shifted by one and its debugId set).
 */

export const SITE = 'https://shop.example.com';

export interface BuiltApp {
  /** Where the page loads it from: a hashed file name, as bundlers write. */
  url: string;
  debugId: string;
  /** The injected script and its map (as uploaded). */
  code: string;
  map: string;
}

/** A debug id from content, as `inject` derives it: a UUID made of the content's hash. */
export function debugIdOf(content: string): string {
  const hex = createHash('sha256').update(content).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${((parseInt(hex[16] as string, 16) & 3) | 8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** Injects a built script and its map as `sourcemaps inject` does (docs/source-maps.md). */
export function inject(code: string, map: string): { code: string; map: string; debugId: string } {
  const debugId = debugIdOf(code);
  const json = JSON.parse(map) as { mappings: string } & Record<string, unknown>;
  const injected = `${debugIdSnippet(debugId)}\n${code.replace(/\n?\/\/# sourceMappingURL=.*\n?$/, '\n')}//# debugId=${debugId}\n`;
  return { code: injected, map: JSON.stringify({ ...json, mappings: `;${json.mappings}`, debugId, debug_id: debugId }), debugId };
}

/** Sources (path → text, `src/main.js` the entry) built minified into one IIFE script and its external map, in a scratch folder. */
export function buildMinified(
  sources: Iterable<readonly [string, string]>,
  options: { sourcesContent?: boolean; globalName?: string; nodePaths?: string[]; target?: string } = {},
): { code: string; map: string } {
  const dir = mkdtempSync(join(tmpdir(), 'maps-app-'));
  try {
    mkdirSync(join(dir, 'src'));
    for (const [name, text] of sources) writeFileSync(join(dir, name), text);
    // Synchronous: no esbuild service left running after the test.
    const result = buildSync({
      absWorkingDir: dir,
      entryPoints: ['src/main.js'],
      bundle: true,
      minify: true,
      format: 'iife',
      sourcemap: 'external',
      sourcesContent: options.sourcesContent ?? true,
      ...(options.globalName === undefined ? {} : { globalName: options.globalName }),
      ...(options.nodePaths === undefined ? {} : { nodePaths: options.nodePaths }),
      ...(options.target === undefined ? {} : { target: options.target }),
      outfile: 'dist/app.js',
      write: false,
      logLevel: 'silent',
    });
    const js = result.outputFiles.find((file) => file.path.endsWith('.js'));
    const map = result.outputFiles.find((file) => file.path.endsWith('.js.map'));
    if (!js || !map) throw new Error('esbuild wrote no script or no map');
    return { code: js.text, map: map.text };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The app built minified as esbuild writes it (not injected): build 1 as written, build 2 with the unrelated function added. */
const compile = (version: 1 | 2, options: { sourcesContent?: boolean } = {}): { code: string; map: string } => buildMinified(sourcesOfBuild(version), options);

/** The app built minified and injected (the helper's inject, above): build 1 as written, build 2 with the unrelated function added. */
export async function buildApp(version: 1 | 2, options: { sourcesContent?: boolean } = {}): Promise<BuiltApp> {
  const built = compile(version, options);
  const injected = inject(built.code, built.map);
  const hash = createHash('sha256').update(injected.code).digest('hex').slice(0, 8);
  return { url: `${SITE}/assets/app-${hash}.js`, debugId: injected.debugId, code: injected.code, map: injected.map };
}

/**
 * Both builds written into `<dir>/assets/` as a bundler leaves them for CI, not injected: `app-1.js` and
 * `app-2.js`, each with its map beside it, named by its `//# sourceMappingURL=` comment. Returns the scripts'
 * paths under `dir`. esbuild's service is stopped after, so no process outlives the test.
 */
export async function writeBuilds(dir: string): Promise<string[]> {
  mkdirSync(join(dir, 'assets'), { recursive: true });
  try {
    return ([1, 2] as const).map((version) => {
      const { code, map } = compile(version);
      const name = `app-${version}.js`;
      writeFileSync(join(dir, 'assets', name), `${code.replace(/\n?$/, '\n')}//# sourceMappingURL=${name}.map\n`);
      writeFileSync(join(dir, 'assets', `${name}.map`), map);
      return `assets/${name}`;
    });
  } finally {
    await stop();
  }
}

/** Both builds; esbuild's service is stopped after, so no process outlives the test. */
export async function buildBoth(options: { sourcesContent?: boolean } = {}): Promise<[BuiltApp, BuiltApp]> {
  try {
    return [await buildApp(1, options), await buildApp(2, options)];
  } finally {
    await stop();
  }
}

/** The error the app throws, run as a page would (V8, like Chromium), and the debug ids the SDK would send with it. */
export const throwIn = (app: BuiltApp): PageError => throwInPage(app.code, app.url, SITE);
