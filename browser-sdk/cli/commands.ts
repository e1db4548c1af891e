/**
 * The two commands as both front ends run them (the SDK package's bin,
 * main.ts, and the repository's `npm run sourcemaps`): each gives one JSON
 * object to print and whether it succeeded.
 */
import { existsSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
// Pure and import-free: bundled into the SDK's bin with the rest of this folder.
import { debugIdSnippet } from '../../lambda/ingest/sourcemaps/debug-id-snippet';
import { injectDebugIds, type InjectOptions } from './debug-ids';
import { uploadMaps, UploadError, type UploadOptions } from './upload';

export interface CommandResult {
  ok: boolean;
  output: Record<string, unknown>;
}

/** A usage mistake: the front end prints it with its usage text. */
export class CommandLineError extends Error {}

export function buildDir(dir: string | undefined): string {
  if (!dir) throw new CommandLineError('the build folder is required (the folder your bundler writes, like dist/)');
  const full = resolve(dir);
  if (!existsSync(full) || !statSync(full).isDirectory()) throw new CommandLineError(`${dir} is not a folder`);
  return full;
}

/** Inject with the browser SDK's registration line on top of each script (docs/source-maps.md#debug-ids-in-the-browser). */
export function runInject(dir: string, options: InjectOptions = { snippet: debugIdSnippet }): CommandResult {
  const result = injectDebugIds(dir, options);
  return {
    ok: true,
    output: {
      injected: result.injected,
      unchanged: result.unchanged,
      withoutMap: result.withoutMap,
      files: result.files.map((file) => ({ path: file.path, debugId: file.debugId, map: relative(dir, file.map) })),
    },
  };
}

export async function runUpload(dir: string, options: UploadOptions): Promise<CommandResult> {
  if (!/^dfsk_/.test(options.key)) throw new CommandLineError('the key must be a secret key of the factory (dfsk_…): publishable keys cannot upload maps');
  try {
    const summary = await uploadMaps(dir, options);
    const maps = summary.maps.map((m) => ({ ...m, map: relative(dir, m.map) }));
    const problems = [
      ...summary.refused.map((m) => `${relative(dir, m.map)} (for ${m.file}) was refused: ${m.reason}`),
      ...summary.unnamed.map((file) => `${file} has a map but no debug id: run inject first, or pass --release`),
    ];
    const output: Record<string, unknown> = { uploaded: summary.uploaded, alreadyStored: summary.alreadyStored, maps };
    if (problems.length > 0) output.error = `${problems.length} map(s) not uploaded: ${problems.join('; ')}`;
    return { ok: problems.length === 0, output };
  } catch (error) {
    if (error instanceof UploadError) return { ok: false, output: { uploaded: 0, error: error.message } };
    throw error;
  }
}
