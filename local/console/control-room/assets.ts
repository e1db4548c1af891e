import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';

export interface Asset {
  type: string;
  body: Buffer;
}

const TYPES: Record<string, string> = { '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8' };
export const ASSETS_DIR = join(__dirname, 'assets');

/** The app's scripts and stylesheet, read once: only these names are ever served under /assets/. */
export function loadAssets(dir: string = ASSETS_DIR): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  return assets;
}
