import { buildSync, stop } from 'esbuild';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

const CART = `export function itemsOf(session) { return session.cart.items; }
export function total(session) { return itemsOf(session).length; }
`;
const MAIN = `import { total } from './cart.js';
window.addEventListener('click', () => console.log(total(window.session)));
`;

/** esbuild keeps a service process for later builds: a test file that built calls this in afterAll. */
export const stopBuilds = (): Promise<void> => stop();

/** A small app built by the repository's esbuild, minified with external source maps, into `<folder>/dist/assets/`; the folder to inject. */
export function esbuildApp(): string {
  const root = mkdtempSync(join(tmpdir(), 'contacts-build-'));
  writeFileSync(join(root, 'cart.js'), CART);
  writeFileSync(join(root, 'main.js'), MAIN);
  buildSync({ entryPoints: [join(root, 'main.js')], bundle: true, minify: true, sourcemap: true, outdir: join(root, 'dist', 'assets'), logLevel: 'silent' });
  return join(root, 'dist');
}

/** A map as a bundler writes it for `file`. */
const mapFor = (file: string) => JSON.stringify({ version: 3, file, sources: ['../../src/cart.js'], names: ['total'], mappings: 'AAAA,SAASA' });

/**
 * The shapes other bundlers write, by hand: Vite (hashed names, the comment naming the map beside), webpack with
 * `hidden-source-map` (no comment, `<file>.map` beside), webpack with maps in a folder of their own (a relative
 * comment), and a script with an inline map (nothing to upload separately).
 */
export function bundlerShapes(): string {
  const dist = join(mkdtempSync(join(tmpdir(), 'contacts-build-')), 'dist');
  const write = (path: string, text: string) => {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    writeFileSync(join(dist, path), text);
  };
  write('assets/index-4f2a9c1b.js', 'function a(){return 1}a();\n//# sourceMappingURL=index-4f2a9c1b.js.map\n');
  write('assets/index-4f2a9c1b.js.map', mapFor('index-4f2a9c1b.js'));
  write('main.3c5e.js', '!function(){console.log(1)}();');
  write('main.3c5e.js.map', mapFor('main.3c5e.js'));
  write('static/js/chunk.js', '(()=>{})();\n//# sourceMappingURL=../../maps/chunk.js.map');
  write('maps/chunk.js.map', mapFor('chunk.js'));
  write('inline.js', `(()=>{})();\n//# sourceMappingURL=data:application/json;base64,${Buffer.from(mapFor('inline.js')).toString('base64')}\n`);
  return dist;
}

/** Every file under `dir` with the sha256 of its bytes: what a second inject must leave as it is. */
export function fingerprint(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const full = join(folder, name);
      if (statSync(full).isDirectory()) walk(full);
      else files[relative(dir, full)] = createHash('sha256').update(readFileSync(full)).digest('hex');
    }
  };
  walk(dir);
  return files;
}
