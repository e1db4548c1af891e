/**
 * Builds the browser SDK package (`npm run sdk:build [-- --out <dir>]`;
 * `npm pack` in browser-sdk/ runs it first), like client/build.ts builds
 * the typed client: the bundles of bundles.ts, then the declarations by tsc
 * with browser-sdk/tsconfig.json (which also type-checks the sources against
 * the DOM's types). Default folder: browser-sdk/dist.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, rmSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { bundle, SDK_DIR } from './bundles';

const USAGE = 'usage: npm run sdk:build [-- --out <dir>]   (default: browser-sdk/dist)';

function declarations(dir: string): void {
  const tsc = join(SDK_DIR, '..', 'node_modules', 'typescript', 'bin', 'tsc');
  const args = [tsc, '-p', join(SDK_DIR, 'tsconfig.json'), '--declaration', '--emitDeclarationOnly', '--outDir', dir];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`tsc -p browser-sdk/tsconfig.json failed:\n${run.stdout}${run.stderr}`);
}

async function main(): Promise<void> {
  let out: string | undefined;
  try {
    out = parseArgs({ options: { out: { type: 'string' } } }).values.out;
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : error}\n${USAGE}`);
    process.exit(2);
  }
  const dir = out === undefined ? join(SDK_DIR, 'dist') : isAbsolute(out) ? out : resolve(out);
  rmSync(dir, { recursive: true, force: true });
  await bundle(dir);
  declarations(dir);
  for (const name of readdirSync(dir).sort())
    console.log(`${relative(process.cwd(), join(dir, name)) || name} ${statSync(join(dir, name)).size.toLocaleString('en-US')} bytes`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
