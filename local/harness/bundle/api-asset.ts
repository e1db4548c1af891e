import { spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../paths';

/** A function's code as `cdk deploy` would upload it. */
export interface ApiAsset {
  /** The bundled handler file, `<assembly>/asset.<hash>/index.mjs`. */
  file: string;
  bytes: number;
  /** The asset hash: the S3 key (`<hash>.zip`) the template points at. */
  hash: string;
}

/** The functions behind the REST API, by the start of their description in the stack. */
export const FUNCTION_DESCRIPTIONS = { contacts: 'Contacts API', ingest: 'Contacts ingest API' } as const;
export type ApiFunction = keyof typeof FUNCTION_DESCRIPTIONS;

interface Manifest {
  artifacts: Record<string, { type: string; properties?: { templateFile?: string } }>;
}
interface Template {
  Resources: Record<string, { Type: string; Properties?: { Description?: string; Code?: { S3Key?: unknown } } }>;
}
interface AssetManifest {
  files: Record<string, { source: { path: string } }>;
}

const readJson = <T>(file: string): T => JSON.parse(readFileSync(file, 'utf8')) as T;

/**
 * Runs the project's own `cdk synth` (the CLI, cdk.json and bin/contacts.ts:
 * exactly what `cdk deploy` bundles) into `outdir`. Takes some 8 s.
 * `validation: false` skips aws-cdk-lib's template validation
 * (CDK_VALIDATION=false): the same templates and assets, without the
 * validation's report files, in about half the CPU (8.1 s of user time
 * against 14.3 s here).
 */
export function synthesize(outdir: string, options: { validation?: boolean } = {}): void {
  const cdk = join(PROJECT_ROOT, 'node_modules', '.bin', 'cdk');
  const run = spawnSync(cdk, ['synth', '--quiet', '--output', outdir], {
    cwd: PROJECT_ROOT,
    encoding: 'utf8',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: 'true', ...(options.validation === false ? { CDK_VALIDATION: 'false' } : {}) },
  });
  if (run.status !== 0) {
    throw new Error(`cdk synth failed (exit ${run.status}):\n${run.stderr || run.stdout || run.error?.message}`);
  }
}

/**
 * Finds a function's asset in a cloud assembly the way deployment does: the
 * function's `Code.S3Key` in the template names the asset, and the assets
 * manifest says which folder holds it.
 */
export function findApiAsset(assemblyDir: string, which: ApiFunction = 'contacts'): ApiAsset {
  return findFunctionAsset(assemblyDir, FUNCTION_DESCRIPTIONS[which]);
}

/** The source maps API function's description in the stack (lib/source-maps.ts). */
export const SOURCEMAPS_DESCRIPTION = 'Contacts source maps API';

/** The tally's description in the stack (lib/tally.ts): its asset runs `npm start -- --bundle`'s stream consumer. */
export const TALLY_DESCRIPTION = 'Contacts tally';

/** The asset of the function whose description starts with `description`, found as findApiAsset finds one. */
export function findFunctionAsset(assemblyDir: string, description: string): ApiAsset {
  const manifest = readJson<Manifest>(join(assemblyDir, 'manifest.json'));
  const stacks = Object.values(manifest.artifacts).filter((artifact) => artifact.type === 'aws:cloudformation:stack');
  for (const stack of stacks) {
    const templateFile = stack.properties?.templateFile;
    if (!templateFile) continue;
    const template = readJson<Template>(join(assemblyDir, templateFile));
    const fn = Object.values(template.Resources).find(
      (resource) => resource.Type === 'AWS::Lambda::Function' && resource.Properties?.Description?.startsWith(description),
    );
    const key = fn?.Properties?.Code?.S3Key;
    if (typeof key !== 'string') continue;
    const hash = key.replace(/\.zip$/, '');
    const assets = readJson<AssetManifest>(join(assemblyDir, templateFile.replace(/\.template\.json$/, '.assets.json')));
    const source = assets.files[hash]?.source.path;
    if (!source) throw new Error(`the assets manifest of ${templateFile} has no asset ${hash}`);
    const file = join(assemblyDir, source, 'index.mjs');
    return { file, bytes: statSync(file).size, hash };
  }
  throw new Error(`no "${description}" function with a bundled asset in ${assemblyDir}`);
}

/** Synthesizes into `outdir` and returns the API functions' assets. */
export function buildApiAssets(outdir: string): Record<ApiFunction, ApiAsset> {
  synthesize(outdir);
  return { contacts: findApiAsset(outdir, 'contacts'), ingest: findApiAsset(outdir, 'ingest') };
}
