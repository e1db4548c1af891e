/**
 * `npm run sdk:size`: the gzipped size of the one-file build (what a
 * <script> tag downloads), against its 5 KB budget: exits 1 above it. Beside
 * it, the anchors' minimal error-reporting bundles as measured in
 * bench/sdk-size.md (bench/sdk-anchors.json).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GZIP_BUDGET_BYTES, measureScript, SCRIPT_FILE, SDK_DIR } from './bundles';

interface Anchor {
  package: string;
  version: string;
  variant?: string;
  gzipBytes: number;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

async function main(): Promise<void> {
  const usage = 'usage: npm run sdk:size   (no arguments)';
  const args = process.argv.slice(2);
  if (args.length === 1 && (args[0] === '--help' || args[0] === '-h')) {
    console.log(usage);
    return;
  }
  if (args.length > 0) {
    console.error(`error: unexpected argument "${args[0]}"\n\n${usage}`);
    process.exit(2);
  }
  const { bytes, gzipBytes } = await measureScript();
  const within = gzipBytes <= GZIP_BUDGET_BYTES;
  console.log(
    `${SCRIPT_FILE}: ${bytes.toLocaleString('en-US')} bytes minified, ${gzipBytes.toLocaleString('en-US')} bytes gzipped (${kb(gzipBytes)}); budget ${GZIP_BUDGET_BYTES.toLocaleString('en-US')} bytes: ${within ? 'PASS' : 'FAIL'}`,
  );
  const anchorsFile = join(SDK_DIR, '..', 'bench', 'sdk-anchors.json');
  if (existsSync(anchorsFile)) {
    const anchors = (JSON.parse(readFileSync(anchorsFile, 'utf8')) as { anchors: Anchor[] }).anchors;
    console.log('minimal error-reporting bundles of other SDKs, gzipped (bench/sdk-size.md):');
    for (const anchor of anchors)
      console.log(
        `  ${`${anchor.package}@${anchor.version}${anchor.variant ? ` (${anchor.variant})` : ''}`.padEnd(34)} ${anchor.gzipBytes.toLocaleString('en-US').padStart(7)} bytes (${kb(anchor.gzipBytes)})`,
      );
  }
  if (!within) {
    console.error(`over budget by ${(gzipBytes - GZIP_BUDGET_BYTES).toLocaleString('en-US')} bytes gzipped`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
