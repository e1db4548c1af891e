import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { build, stop as stopEsbuild } from 'esbuild';
import type { ApiAsset, ApiFunction } from './api-asset';

/** The file each function's asset is copied to in a prepared folder. */
export const ASSET_FILES: Record<ApiFunction, string> = { contacts: 'index.mjs', ingest: 'ingest.mjs' };

/**
 * A folder outside the project holding a copy of the API functions' assets
 * (index.mjs: contacts, ingest.mjs: ingest) and the local HTTP adapter
 * bundled into one file (serve-asset.mjs). No node_modules folder is above
 * it, so each handler runs on its bundle alone.
 */
export async function prepareBundledApi(assets: Partial<Record<ApiFunction, ApiAsset>> & { contacts: ApiAsset }): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'contacts-asset-'));
  for (let up = dir; up !== parse(up).root; up = dirname(up)) {
    if (existsSync(join(up, 'node_modules'))) throw new Error(`${up} has a node_modules folder: the asset would not run alone`);
  }
  for (const [which, asset] of Object.entries(assets) as [ApiFunction, ApiAsset][]) copyFileSync(asset.file, join(dir, ASSET_FILES[which]));
  try {
    await build({
      entryPoints: [join(__dirname, 'serve-asset.ts')],
      outfile: join(dir, 'serve-asset.mjs'),
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
    });
  } finally {
    // esbuild's build service would otherwise keep running until this process exits.
    await stopEsbuild();
  }
  return dir;
}

export interface BundledServer {
  baseUrl: string;
  pid: number;
  /** What the process wrote on stderr so far (its error log lines). */
  stderr(): string;
  stop(): Promise<void>;
}

/**
 * Starts `node serve-asset.mjs index.mjs [<prefix>=ingest.mjs]` in a prepared
 * folder, with only the environment given (plus PATH): no NODE_PATH, no
 * NODE_OPTIONS, nothing from the project. Paths under `ingestPrefix` go to
 * the ingest asset when the folder has one. Resolves once it listens.
 */
export function startBundledServer(dir: string, env: Record<string, string>, timeoutMs = 15_000, ingestPrefix?: string): Promise<BundledServer> {
  const mounts = ingestPrefix && existsSync(join(dir, ASSET_FILES.ingest)) ? [`${ingestPrefix}=${ASSET_FILES.ingest}`] : [];
  const child = spawn(process.execPath, ['serve-asset.mjs', ASSET_FILES.contacts, ...mounts], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the bundled API did not start in ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the bundled API exited (code ${code}) before listening: ${stderr}`));
    });
    let listening = false;
    // Keeps reading after start-up too: a full pipe would block the server's log writes.
    child.stdout.on('data', (chunk: Buffer) => {
      if (listening) return;
      stdout += chunk.toString();
      const port = /^listening (\d+)$/m.exec(stdout)?.[1];
      if (!port) return;
      listening = true;
      clearTimeout(timer);
      resolve({
        baseUrl: `http://127.0.0.1:${port}`,
        pid: child.pid ?? -1,
        stderr: () => stderr,
        stop: async () => {
          if (child.exitCode === null) child.kill('SIGTERM');
          await exited;
        },
      });
    });
  });
}
