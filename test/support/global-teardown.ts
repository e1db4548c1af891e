import { rmSync } from 'node:fs';
import { assertNoProcessLeft } from './leftover-processes';

/**
 * Stops the run's DynamoDB Local, then fails the run if any process it
 * started still runs (`folders`: where the bundled asset's server ran).
 */
export async function finishRun(folders: string[]): Promise<void> {
  try {
    await globalThis.__runTally?.stop();
    const semantics = globalThis.__semanticsProxy;
    if (semantics) {
      const { totals, operations } = semantics.stats();
      process.stdout.write(`\nthe semantics proxy counted: ${JSON.stringify({ totals, operations })}\n`);
      await semantics.close();
    }
    await globalThis.__scratchStore?.close();
    await globalThis.__s3Local?.store.stop();
    await assertNoProcessLeft({ folders });
  } finally {
    if (globalThis.__serversDir) rmSync(globalThis.__serversDir, { recursive: true, force: true });
    if (globalThis.__s3Local) rmSync(globalThis.__s3Local.dir, { recursive: true, force: true });
    if (globalThis.__sdkBuildDir) rmSync(globalThis.__sdkBuildDir, { recursive: true, force: true });
  }
}

/** jest's globalTeardown (it passes jest's configuration, not folders). */
export default async function globalTeardown(): Promise<void> {
  await finishRun([]);
}
