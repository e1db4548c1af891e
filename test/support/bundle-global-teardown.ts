import { rmSync } from 'node:fs';
import globalTeardown from './global-teardown';

/** Stops DynamoDB Local and removes the temporary assembly and asset folders. */
export default async function bundleGlobalTeardown(): Promise<void> {
  await globalTeardown();
  for (const folder of globalThis.__bundleFolders ?? []) rmSync(folder, { recursive: true, force: true });
}
