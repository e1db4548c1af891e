/** Stops the run's DynamoDB Local so no java process outlives the tests. */
export default async function globalTeardown(): Promise<void> {
  await globalThis.__scratchStore?.close();
}
