/**
 * A build's JavaScript files and the source map of each, found as browsers
 * and bundlers name them: the `//# sourceMappingURL=` comment (esbuild,
 * Vite and webpack write it; `//@` is the old form), else `<file>.map`
 * beside the file (webpack's hidden-source-map, Vite's `sourcemap:
 * 'hidden'`). Node built-ins only: this folder ships in the SDK package's bin.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';

const JS = /\.(m|c)?js$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git']);

/** The last sourceMappingURL comment of a script, if any. */
const MAPPING_URL = /\/\/[#@][ \t]+sourceMappingURL=([^\s'"]+)[ \t]*$/gm;

export interface BuiltFile {
  /** Absolute path of the .js file. */
  file: string;
  /** Its path under the build's folder, with forward slashes: the URL path it is served at below the site's root. */
  path: string;
  /** Its map's absolute path, when one was found. */
  map?: string;
  /** The map is inline (a data: URL): nothing to upload separately. */
  inline?: boolean;
}

/** Every .js, .mjs and .cjs file under `dir`, sorted, with its map when one is found. */
export function builtFiles(dir: string): BuiltFile[] {
  const root = resolve(dir);
  const found: BuiltFile[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder).sort()) {
      const full = join(folder, name);
      const stat = statSync(full);
      if (stat.isDirectory()) {
        if (!SKIPPED_DIRS.has(name)) walk(full);
      } else if (JS.test(name)) {
        found.push({ file: full, path: relative(root, full).split(sep).join('/') });
      }
    }
  };
  walk(root);
  return found;
}

/** The sourceMappingURL a script names (the last one), or undefined. */
export function mappingUrlOf(text: string): string | undefined {
  let last: string | undefined;
  for (const match of text.matchAll(MAPPING_URL)) last = match[1];
  return last;
}

/**
 * Where a script's map is: the file its sourceMappingURL names, relative to
 * the script (a URL's query and fragment dropped; an absolute URL or a
 * root path taken by its file name beside the script), else `<file>.map`.
 */
export function locateMap(file: string, text: string): { map?: string; inline?: boolean } {
  const url = mappingUrlOf(text);
  if (url?.startsWith('data:')) return { inline: true };
  const candidates: string[] = [];
  if (url) {
    const bare = url.replace(/[?#].*$/, '');
    let decoded = bare;
    try {
      decoded = decodeURIComponent(bare);
    } catch {
      // A malformed escape: try the text as written.
    }
    if (!/^[a-z][a-z0-9+.-]*:/i.test(decoded) && !decoded.startsWith('/')) candidates.push(resolve(dirname(file), decoded));
    candidates.push(join(dirname(file), basename(decoded)));
  }
  candidates.push(`${file}.map`);
  const map = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
  return map ? { map } : {};
}
