/**
 * Builds the client package into client/dist (`npm run client:build`; `npm
 * pack` in client/ runs it first):
 * - index.js: one ESM file, esbuild, for a neutral platform. It compiles in
 *   the service's own email rule and contact-id rule from lambda/contacts/domain, so
 *   `contactId()` follows whatever the service's sources say; node:url (the
 *   email rule's IDNA step) becomes the web shim, and any other Node import
 *   fails the build: the client must run wherever fetch does.
 * - *.d.ts: the declarations of client/src, by tsc with the web platform's
 *   types only (client/tsconfig.json); none may refer to the service's files.
 */
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const CLIENT = fileURLToPath(new URL('.', import.meta.url));
const ROOT = join(CLIENT, '..');
const DIST = join(CLIENT, 'dist');
const TYPES = join(ROOT, '.client-types');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

async function bundle(): Promise<void> {
  const { version } = JSON.parse(readFileSync(join(CLIENT, 'package.json'), 'utf8')) as { version: string };
  await build({
    entryPoints: [join(CLIENT, 'src', 'index.ts')],
    outfile: join(DIST, 'index.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    alias: { 'node:url': join(CLIENT, 'src', 'shims', 'node-url.ts') },
    banner: { js: `// contacts-service-client ${version}: built from the contacts service's sources (client/build.ts).` },
    legalComments: 'none',
    logLevel: 'error',
  });
  const code = readFileSync(join(DIST, 'index.js'), 'utf8');
  if (/^\s*import\s/m.test(code) || /\brequire\(/.test(code)) throw new Error('client/dist/index.js imports something: it must be self-contained');
}

function declarations(): void {
  rmSync(TYPES, { recursive: true, force: true });
  const tsc = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(CLIENT, 'tsconfig.json')], {
    encoding: 'utf8',
  });
  if (tsc.status !== 0) throw new Error(`tsc (client/tsconfig.json) failed:\n${tsc.stdout}${tsc.stderr}`);
  const emitted = join(TYPES, 'client', 'src');
  for (const file of files(emitted)) {
    const path = relative(emitted, file);
    if (path.startsWith('shims')) continue;
    const text = readFileSync(file, 'utf8');
    if (/from\s+['"]\.\.\/\.\.\//.test(text)) throw new Error(`${path} refers to the service's sources: the package's types must stand alone`);
    mkdirSync(join(DIST, relative(emitted, join(file, '..'))), { recursive: true });
    cpSync(file, join(DIST, path));
  }
  rmSync(TYPES, { recursive: true, force: true });
}

async function main(): Promise<void> {
  rmSync(DIST, { recursive: true, force: true });
  await bundle();
  declarations();
  if (!existsSync(join(DIST, 'index.d.ts'))) throw new Error('no client/dist/index.d.ts');
  for (const file of files(DIST)) console.log(`${relative(ROOT, file)} ${statSync(file).size.toLocaleString('en-US')} bytes`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
