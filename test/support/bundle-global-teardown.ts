import { rmSync } from 'node:fs';
import { finishRun } from './global-teardown';

/** Stops DynamoDB Local, checks no process is left (the asset's server included), removes the temporary folders. */
export default async function bundleGlobalTeardown(): Promise<void> {
  const folders = globalThis.__bundleFolders ?? [];
  try {
    await finishRun(folders);
  } finally {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}
