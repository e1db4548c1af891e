/**
 * A CPU profile of `npm start -- --bundle` made readable: its samples in the
 * bundled Lambda assets (one minified file each) charged to the source files
 * and functions they came from, through a source map of a rebuild of each
 * asset with the stack's own bundling options (byte-identical to the asset,
 * or the asset is left as it is), and only the samples inside chosen time
 * windows (a benchmark's measured batches, not its start-up or warm-up).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { originalPositionFor, TraceMap } from '@jridgewell/trace-mapping';
import { build } from 'esbuild';
import { PROJECT_ROOT } from '../../local/harness/paths';
import type { CpuProfile } from './profile';

/** A profile as V8 writes it, with its clock (microseconds of the monotonic clock, as process.hrtime's). */
export interface TimedProfile extends CpuProfile {
  startTime: number;
  endTime: number;
}

/** The monotonic clock in microseconds, as V8's profiles time their samples. */
export const monotonicUs = (): number => Number(process.hrtime.bigint() / 1000n);

/** The entries lib/ bundles (each `entry:` of a function), as files of the project. */
function bundledEntries(root: string): string[] {
  const entries = new Set<string>();
  for (const file of readdirSync(join(root, 'lib'))) {
    if (!file.endsWith('.ts')) continue;
    for (const match of readFileSync(join(root, 'lib', file), 'utf8').matchAll(/entry: '([^']+\.ts)'/g)) entries.add(`lambda/${match[1]}`);
  }
  return [...entries];
}

/** Each entry rebuilt as the stack bundles it, with a source map: the map of every asset whose code it reproduces byte for byte. */
async function assetMaps(root: string): Promise<Map<string, TraceMap>> {
  const { BUNDLING } = (await import(join(root, 'lib', 'service-function'))) as typeof import('../../lib/service-function');
  const alias: Record<string, string> = {};
  for (const [flag, value] of Object.entries(BUNDLING.esbuildArgs ?? {}))
    if (flag.startsWith('--alias:') && typeof value === 'string') alias[flag.slice(8)] = value;
  const maps = new Map<string, TraceMap>();
  for (const entry of bundledEntries(root)) {
    const result = await build({
      absWorkingDir: root,
      entryPoints: [entry],
      bundle: true,
      platform: 'node',
      target: BUNDLING.target,
      format: 'esm',
      minify: BUNDLING.minify === true,
      mainFields: BUNDLING.mainFields,
      banner: BUNDLING.banner ? { js: BUNDLING.banner } : undefined,
      external: BUNDLING.externalModules,
      alias,
      sourcemap: 'external',
      write: false,
      outfile: join(root, '.profile-rebuild', 'index.mjs'),
      logLevel: 'silent',
    });
    const code = result.outputFiles.find((file) => file.path.endsWith('.mjs'))?.text;
    const map = result.outputFiles.find((file) => file.path.endsWith('.map'))?.text;
    if (code !== undefined && map !== undefined) maps.set(code, new TraceMap(map));
  }
  return maps;
}

/** The samples of `profile` inside `windows` ([start, end] in its clock), the rest dropped. */
export function withinWindows(profile: TimedProfile, windows: readonly [number, number][]): TimedProfile {
  const samples: number[] = [];
  const timeDeltas: number[] = [];
  let at = profile.startTime;
  let kept = at;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    if (!windows.some(([start, end]) => at >= start && at <= end)) return;
    samples.push(id);
    timeDeltas.push(at - kept);
    kept = at;
  });
  // The first kept sample's delta reaches back to the profile's start: it counts as one interval, not that gap.
  if (timeDeltas.length > 1) timeDeltas[0] = timeDeltas[1] as number;
  return { ...profile, samples, timeDeltas };
}

/**
 * The profile with every frame in a bundled asset of `root`'s assembly renamed to where it came from (its source file,
 * line and, when the map names it, its original function name); frames of assets no rebuild reproduces stay as they are.
 */
export async function mapAssetFrames(profile: TimedProfile, root: string = PROJECT_ROOT): Promise<TimedProfile> {
  const maps = await assetMaps(root);
  const byUrl = new Map<string, TraceMap | undefined>();
  const mapOf = (url: string): TraceMap | undefined => {
    if (!/\/asset\.[0-9a-f]+\/index\.mjs$/.test(url)) return undefined;
    if (!byUrl.has(url)) {
      let code: string | undefined;
      try {
        code = readFileSync(url.startsWith('file:') ? fileURLToPath(url) : url, 'utf8');
      } catch {
        code = undefined;
      }
      byUrl.set(url, code === undefined ? undefined : maps.get(code));
    }
    return byUrl.get(url);
  };
  const nodes = profile.nodes.map((node) => {
    const map = mapOf(node.callFrame.url);
    if (!map) return node;
    const position = originalPositionFor(map, {
      line: node.callFrame.lineNumber + 1,
      column: Math.max(0, (node.callFrame as { columnNumber?: number }).columnNumber ?? 0),
    });
    if (!position.source) return node;
    return {
      ...node,
      callFrame: {
        ...node.callFrame,
        url: resolve(root, '.profile-rebuild', position.source),
        lineNumber: (position.line ?? 1) - 1,
        functionName: position.name ?? node.callFrame.functionName,
      },
    };
  });
  return { ...profile, nodes };
}
