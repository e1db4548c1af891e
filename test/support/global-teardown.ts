import { assertNoProcessLeft } from './leftover-processes';

/**
 * Stops the run's DynamoDB Local, then fails the run if any process it
 * started still runs (`folders`: where the bundled asset's server ran).
 */
export async function finishRun(folders: string[]): Promise<void> {
  await globalThis.__scratchStore?.close();
  await assertNoProcessLeft({ folders });
}

/** jest's globalTeardown (it passes jest's configuration, not folders). */
export default async function globalTeardown(): Promise<void> {
  await finishRun([]);
}
