/**
 * The size of each API function's asset, as `cdk synth` bundles it (the
 * file `cdk deploy` uploads), against the budget; and what each carries,
 * by package and by folder of lambda/, from esbuild's metafile of a rebuild
 * with the stack's bundling options. The figures of bench/asset-sizes.md.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApiAssets, type ApiFunction } from '../../local/harness/bundle/api-asset';
import { parseCommandLine, runCommand, UsageError } from '../../local/harness/cli';
import { breakdown } from './cold-start';
import { BUNDLE_LIMIT_BYTES, INGEST_BUNDLE_LIMIT_BYTES } from './report';

const USAGE = `usage: node --import tsx tools/bench/asset-sizes.ts [--top <n>]

Runs the project's cdk synth into a temporary folder (removed afterwards),
prints each API function's asset size in bytes and the largest parts of it.
  --top <n>   parts listed per asset (default 12)`;

/** Each function's Lambda entry, as lib/ names it. */
const ENTRIES: Record<ApiFunction, string> = { contacts: 'lambda/contacts/api/contacts-entry.ts', ingest: 'lambda/ingest/api/ingest-entry.ts' };

const int = (n: number) => n.toLocaleString('en-US');

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { top: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const top = values.top === undefined ? 12 : Number(values.top);
  if (!Number.isSafeInteger(top) || top < 1) throw new UsageError(`--top takes a whole number of at least 1, not "${values.top}"`);

  const assembly = mkdtempSync(join(tmpdir(), 'contacts-asset-sizes-'));
  try {
    process.stderr.write('cdk synth …\n');
    const assets = buildApiAssets(assembly);
    for (const [name, asset] of Object.entries(assets) as [ApiFunction, (typeof assets)[ApiFunction]][]) {
      const parts = await breakdown(readFileSync(asset.file), ENTRIES[name]);
      process.stdout.write(
        `${name} (${ENTRIES[name]}): ${int(asset.bytes)} bytes${parts.identical ? '' : ` (rebuild: ${int(parts.rebuiltBytes)} bytes, not byte-identical)`}\n`,
      );
      for (const part of parts.byPackage.slice(0, top)) process.stdout.write(`  ${int(part.bytes).padStart(9)}  ${part.name}\n`);
    }
    const { contacts, ingest } = assets;
    const verdict = (pass: boolean) => (pass ? 'PASS' : 'FAIL');
    process.stdout.write(`contacts under ${int(BUNDLE_LIMIT_BYTES)} bytes: ${verdict(contacts.bytes < BUNDLE_LIMIT_BYTES)}\n`);
    process.stdout.write(`ingest under ${int(INGEST_BUNDLE_LIMIT_BYTES)} bytes: ${verdict(ingest.bytes < INGEST_BUNDLE_LIMIT_BYTES)}\n`);
  } finally {
    rmSync(assembly, { recursive: true, force: true });
  }
});
