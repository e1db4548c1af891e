import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, parse } from 'node:path';
import { build, type BuildOptions, type Metafile } from 'esbuild';
import { findApiAsset, synthesize } from '../../local/harness/bundle/api-asset';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { familyOf, packageOf } from './packages';
import { median, percentile } from './stats';

/** The API function as `cdk synth` builds it, and how long its module takes to load. */
export interface ColdStartResult {
  assetFile: string;
  assetHash: string;
  /** index.mjs, minified; a source map, if any, is not counted. */
  bytes: number;
  sourceMapBytes: number;
  memoryMb: number;
  /** The function's environment from the template (references replaced by stand-in names). */
  environment: Record<string, string>;
  /** import() of the bundle in a fresh Node process, each run. */
  initMs: number[];
  /** From process start to the bundle loaded. */
  sinceProcessStartMs: number[];
  breakdown: BundleBreakdown;
  synthSeconds: number;
}

export interface BundleBreakdown {
  /** The rebuild with the stack's bundling options is byte-identical to the asset. */
  identical: boolean;
  rebuiltBytes: number;
  /** Options of lib/service-function.ts the rebuild did not reproduce. */
  notReproduced: string[];
  byPackage: { name: string; bytes: number }[];
  families: { name: string; bytes: number }[];
}

interface Template {
  Resources: Record<
    string,
    {
      Type: string;
      Properties?: {
        Code?: { S3Key?: unknown };
        MemorySize?: number;
        Environment?: { Variables?: Record<string, unknown> };
      };
    }
  >;
}
interface Manifest {
  artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
}
const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/** The function whose code is the asset: its memory and environment, from the synthesized template. */
function functionOfAsset(assemblyDir: string, hash: string): { memoryMb: number; environment: Record<string, string> } {
  const manifest = readJson<Manifest>(join(assemblyDir, 'manifest.json'));
  for (const artifact of Object.values(manifest.artifacts)) {
    const templateFile = artifact.properties?.templateFile;
    if (artifact.type !== 'aws:cloudformation:stack' || !templateFile) continue;
    const template = readJson<Template>(join(assemblyDir, templateFile));
    for (const [logicalId, resource] of Object.entries(template.Resources)) {
      if (resource.Type !== 'AWS::Lambda::Function' || resource.Properties?.Code?.S3Key !== `${hash}.zip`) continue;
      const environment: Record<string, string> = {};
      for (const [name, value] of Object.entries(resource.Properties.Environment?.Variables ?? {})) {
        // A table name is a reference until deployed: any name will do for loading the module.
        environment[name] = typeof value === 'string' ? value : `bench-${logicalId}-${name.toLowerCase()}`;
      }
      return { memoryMb: resource.Properties.MemorySize ?? 128, environment };
    }
  }
  throw new Error(`no function with the asset ${hash} in ${assemblyDir}`);
}

/** What Lambda's Node.js runtime sets, with fake credentials: enough for the module to initialise. */
function lambdaRuntimeEnv(functionEnv: Record<string, string>, memoryMb: number, taskRoot: string): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    ...functionEnv,
    AWS_REGION: 'us-east-1',
    AWS_DEFAULT_REGION: 'us-east-1',
    AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    AWS_SESSION_TOKEN: 'bench-fake-session-token',
    AWS_LAMBDA_FUNCTION_NAME: 'ContactsService-ApiHandler',
    AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(memoryMb),
    AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs22.x',
    LAMBDA_TASK_ROOT: taskRoot,
    TZ: ':UTC',
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
}

const INIT_SCRIPT = `const started = performance.now();
await import('./index.mjs');
const loaded = performance.now();
process.stdout.write(JSON.stringify({ importMs: loaded - started, sinceProcessStartMs: loaded }) + '\\n');
`;

/** Loads the bundle in `runs` fresh Node processes, from a folder with no node_modules in reach. */
function measureInit(assetFile: string, env: NodeJS.ProcessEnv, runs: number, dir: string) {
  for (let up = dir; up !== parse(up).root; up = dirname(up)) {
    if (existsSync(join(up, 'node_modules'))) throw new Error(`${up} has a node_modules folder: the bundle would not load alone`);
  }
  copyFileSync(assetFile, join(dir, 'index.mjs'));
  writeFileSync(join(dir, 'init.mjs'), INIT_SCRIPT);
  const initMs: number[] = [];
  const sinceProcessStartMs: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const result = spawnSync(process.execPath, ['init.mjs'], { cwd: dir, env, encoding: 'utf8', timeout: 30_000 });
    if (result.status !== 0) throw new Error(`loading the bundle failed: ${result.stderr || result.error?.message}`);
    const line = JSON.parse(result.stdout.trim().split('\n').pop() ?? '{}') as { importMs: number; sinceProcessStartMs: number };
    initMs.push(line.importMs);
    sinceProcessStartMs.push(line.sinceProcessStartMs);
  }
  return { initMs, sinceProcessStartMs };
}

/**
 * Rebuilds the API function with the stack's own bundling options (read
 * from lib/service-function.ts) and an esbuild metafile, to say what the
 * bundle holds; the rebuild is compared byte for byte with the asset.
 */
export async function breakdown(asset: Buffer, entry: string): Promise<BundleBreakdown> {
  const { BUNDLING } = await import('../../lib/service-function');
  const aliases: Record<string, string> = {};
  const notReproduced: string[] = [];
  for (const [flag, value] of Object.entries(BUNDLING.esbuildArgs ?? {})) {
    if (flag.startsWith('--alias:') && typeof value === 'string') aliases[flag.slice('--alias:'.length)] = value;
    else notReproduced.push(`esbuildArgs ${flag}`);
  }
  const handled = new Set([
    'minify',
    'sourceMap',
    'target',
    'format',
    'mainFields',
    'bundleAwsSDK',
    'externalModules',
    'forceDockerBundling',
    'banner',
    'esbuildArgs',
  ]);
  for (const option of Object.keys(BUNDLING)) if (!handled.has(option)) notReproduced.push(option);
  const options: BuildOptions = {
    absWorkingDir: PROJECT_ROOT,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    target: BUNDLING.target,
    format: BUNDLING.format === 'esm' ? 'esm' : 'cjs',
    minify: BUNDLING.minify === true,
    mainFields: BUNDLING.mainFields,
    banner: BUNDLING.banner ? { js: BUNDLING.banner } : undefined,
    external: BUNDLING.externalModules,
    alias: aliases,
    metafile: true,
    write: false,
    outfile: join(tmpdir(), 'contacts-bench-rebuild', 'index.mjs'),
    logLevel: 'error',
  };
  const result = await build(options);
  const output = result.outputFiles?.find((file) => file.path.endsWith('index.mjs'));
  const metafile = result.metafile as Metafile;
  const inputs = Object.values(metafile.outputs).find((out) => out.entryPoint !== undefined)?.inputs ?? {};
  const byPackage = new Map<string, number>();
  for (const [path, input] of Object.entries(inputs)) {
    const name = packageOf(path);
    byPackage.set(name, (byPackage.get(name) ?? 0) + input.bytesInOutput);
  }
  const rebuiltBytes = output?.contents.length ?? 0;
  const counted = [...byPackage.values()].reduce((sum, bytes) => sum + bytes, 0);
  byPackage.set('(esbuild glue: module wrappers, banner, exports)', rebuiltBytes - counted);
  const families = new Map<string, number>();
  for (const [name, bytes] of byPackage) families.set(familyOf(name), (families.get(familyOf(name)) ?? 0) + bytes);
  const sorted = (map: Map<string, number>) => [...map.entries()].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes);
  return {
    identical: output !== undefined && Buffer.compare(Buffer.from(output.contents), asset) === 0,
    rebuiltBytes,
    notReproduced,
    byPackage: sorted(byPackage),
    families: sorted(families),
  };
}

/**
 * Runs the project's real `cdk synth` into a temporary folder, finds the
 * API function's asset the way deployment does (template → assets
 * manifest), and measures its size and its module initialisation.
 */
export async function measureColdStart(options: { runs: number }): Promise<ColdStartResult> {
  const assembly = mkdtempSync(join(tmpdir(), 'contacts-bench-synth-'));
  const loadDir = mkdtempSync(join(tmpdir(), 'contacts-bench-init-'));
  try {
    const synthStarted = performance.now();
    synthesize(assembly);
    const synthSeconds = (performance.now() - synthStarted) / 1000;
    const asset = findApiAsset(assembly);
    const map = `${asset.file}.map`;
    const { memoryMb, environment } = functionOfAsset(assembly, asset.hash);
    const env = lambdaRuntimeEnv(environment, memoryMb, loadDir);
    const timings = measureInit(asset.file, env, options.runs, loadDir);
    return {
      assetFile: asset.file.replace(assembly, '<cdk.out>'),
      assetHash: asset.hash,
      bytes: statSync(asset.file).size,
      sourceMapBytes: existsSync(map) ? statSync(map).size : 0,
      memoryMb,
      environment,
      ...timings,
      breakdown: await breakdown(readFileSync(asset.file), 'lambda/contacts/api/contacts-entry.ts'),
      synthSeconds,
    };
  } finally {
    rmSync(assembly, { recursive: true, force: true });
    rmSync(loadDir, { recursive: true, force: true });
  }
}

export const coldStartMedian = (result: ColdStartResult) => ({
  initMs: median(result.initMs),
  p10: percentile(result.initMs, 0.1),
  p90: percentile(result.initMs, 0.9),
  sinceProcessStartMs: median(result.sinceProcessStartMs),
});
