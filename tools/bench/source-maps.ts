/**
 * npm run bench:source-maps: what resolving frames costs at ingest (docs/source-maps.md#what-it-costs), on a
 * 6 MB map (aws-cdk-lib's EC2 module and all it imports, bundled and minified by the repository's esbuild without
 * sourcesContent), in this
 * process, from the in-memory map store (no S3 round trip is measured: add a GET's latency for a cold container):
 *   - the time resolving adds per event with the map cached (p50, p99), a 10-frame stack each;
 *   - a cold container's first event needing the map: read from the store, parsed, first lookup;
 *   - the heap a parsed map holds, against the cache's estimate (the bound is in estimated bytes).
 * Writes bench/source-maps.md.
 */
import { buildSync } from 'esbuild';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemorySourceMapStore } from '../../lambda/infrastructure/memory/memory-source-map-store';
import { groupingCandidates } from '../../lambda/ingest/grouping/fingerprint';
import { debugIdSnippet } from '../../lambda/ingest/sourcemaps/debug-id-snippet';
import { withResolvedFrames } from '../../lambda/ingest/sourcemaps/event-frames';
import { MapCache } from '../../lambda/ingest/sourcemaps/map-cache';
import { SourceMapLoader } from '../../lambda/ingest/sourcemaps/map-loader';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { runWithoutOptions } from '../../local/harness/cli';
import { describeMachine } from './machine';

const FACTORY = 'fac_bench_maps';

const machineLine = (): string => {
  const m = describeMachine('none (no DynamoDB: resolving is in-process)');
  return `${m.cpuModel}, ${m.cores} cores, Node ${m.node}, load ${m.loadAtStart.toFixed(2)} at the start, ${m.date.slice(0, 10)}`;
};
const URL_OF = 'https://shop.example.com/assets/ts-0a1b2c3d.js';
const EVENTS = 5000;

const gc = (globalThis as { gc?: () => void }).gc;
const heap = () => {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
};
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
const ms = (value: number) => `${value.toFixed(3)} ms`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc (npm run bench:source-maps does)');
  // A program of many modules as a site ships one: aws-cdk-lib's EC2 module with all it imports, bundled (the
  // TypeScript compiler's one file, used before, is no JavaScript since TypeScript 7).
  const built = buildSync({
    entryPoints: [join(PROJECT_ROOT, 'node_modules/aws-cdk-lib/aws-ec2/index.js')],
    bundle: true,
    platform: 'node',
    minify: true,
    sourcemap: 'external',
    sourcesContent: false,
    outfile: 'ts.min.js',
    write: false,
    logLevel: 'silent',
  });
  const code = built.outputFiles.find((file) => file.path.endsWith('.js'))?.text ?? '';
  const mapText = built.outputFiles.find((file) => file.path.endsWith('.map'))?.text ?? '';
  const debugId = randomUUID();
  // Injected as `sourcemaps inject` does: one line on top, the map shifted by one line.
  const json = JSON.parse(mapText) as { mappings: string; sources: string[] };
  const sources = json.sources.length.toLocaleString('en-US');
  const injected = JSON.stringify({ ...json, mappings: `;${json.mappings}`, debugId });
  const lines = `${debugIdSnippet(debugId)}\n${code}`.split('\n');
  const store = new MemorySourceMapStore();
  store.put(FACTORY, { kind: 'debugId', debugId }, injected);

  // Stacks of 10 frames at positions spread over the bundle (deterministic: a fixed stride).
  const positions: { line: number; column: number }[] = [];
  for (let i = 0; positions.length < 2000; i += 1) {
    const line = 2 + (i % Math.max(1, lines.length - 1));
    const length = (lines[line - 1] ?? '').length;
    if (length === 0) continue;
    positions.push({ line, column: 1 + ((i * 7919) % length) });
  }
  const eventOf = (n: number) => {
    const stack = [
      'TypeError: boom',
      ...Array.from({ length: 10 }, (_, k) => {
        const { line, column } = positions[(n * 10 + k) % positions.length] as { line: number; column: number };
        return `    at f${k} (${URL_OF}:${line}:${column})`;
      }),
    ].join('\n');
    return { factoryId: FACTORY, type: 'error' as const, exception: { type: 'TypeError', value: 'boom', stack }, debugIds: { [URL_OF]: debugId } };
  };

  const before = heap();
  const loader = new SourceMapLoader(store, new MapCache());
  const coldStart = performance.now();
  const [first] = await withResolvedFrames(loader, [eventOf(0)]);
  const cold = performance.now() - coldStart;
  const resolvedFrames = first?.frames?.filter((frame) => frame.original).length ?? 0;
  const held = heap() - before;
  const estimated = loader.cache.heldBytes;

  const times: number[] = [];
  for (let n = 1; n <= EVENTS; n += 1) {
    const event = eventOf(n);
    const start = performance.now();
    const [resolved] = await withResolvedFrames(loader, [event]);
    groupingCandidates({ ...(resolved as typeof event), message: 'boom' });
    times.push(performance.now() - start);
  }
  const plainTimes: number[] = [];
  for (let n = 1; n <= EVENTS; n += 1) {
    const event = eventOf(n);
    const start = performance.now();
    groupingCandidates({ ...event, message: 'boom' });
    plainTimes.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  plainTimes.sort((a, b) => a - b);
  const added = (p: number) => percentile(times, p) - percentile(plainTimes, p);

  const report = `# Source maps: what resolving costs at ingest

Measured by \`npm run bench:source-maps\` (tools/bench/source-maps.ts) on ${machineLine()}.
The map: aws-cdk-lib's EC2 module with everything it imports (${sources} source files), bundled and minified by the
repository's esbuild without sourcesContent, injected: ${mb(code.length)} of JavaScript, **${mb(Buffer.byteLength(injected))} map**. Each event: a 10-frame stack at
positions spread over the bundle (${resolvedFrames} of 10 frames of the first event resolved). The map store is the
**in-memory twin** (lambda/infrastructure/memory/memory-source-map-store.ts): the cold figure has no S3 round trip in it.

| what | figure |
|---|---|
| resolving + grouping per event, map cached (p50 / p99, ${EVENTS} events) | ${ms(percentile(times, 50))} / ${ms(percentile(times, 99))} |
| grouping alone, frames as sent (p50 / p99) | ${ms(percentile(plainTimes, 50))} / ${ms(percentile(plainTimes, 99))} |
| **time resolving adds per event** (p50 / p99) | **${ms(added(50))} / ${ms(added(99))}** |
| cold container, first event needing the map (read from memory, JSON parse, first lookup decodes the mappings) | **${ms(cold)}** |
| heap the parsed map holds after its first lookup (measured, after GC) | ${mb(held)} |
| the cache's estimate for it (what the bound counts: lambda/ingest/sourcemaps/parsed-map.ts) | ${mb(estimated)} |

The bound: SOURCE_MAP_CACHE_MB, else a quarter of the function's memory (256 MB of the 1,024 MB ingest function),
counted in estimated bytes; a map whose estimate is over the bound is refused without being decoded (\`map-refused\`).
`;
  writeFileSync(join(PROJECT_ROOT, 'bench/source-maps.md'), report);
  process.stdout.write(report);
}

const USAGE = `usage: npm run bench:source-maps

Times what resolving frames adds per event on a 6 MB map (cached and cold), measures the heap the parsed map
holds against the cache's estimate, and writes bench/source-maps.md. Takes no options.`;

runWithoutOptions(USAGE, main);
