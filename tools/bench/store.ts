import { randomBytes } from 'node:crypto';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { openScratchStore, type ScratchStore } from '../../local/harness/store';

/** The DynamoDB the benchmark runs on, and its own (uncounted) admin access. */
export interface BenchStore extends ScratchStore {
  /** Uncounted: issues keys. */
  keys: KeyAdmin;
}

/** The scratch store of local/harness/store.ts, with a key admin on its uncounted client. */
export async function openBenchStore(): Promise<BenchStore> {
  const store = await openScratchStore();
  return { ...store, keys: new KeyAdmin(store.doc, store.tables.keys) };
}

/** A factory id of this run, unlike any other's. */
export const benchFactoryId = (label: string): string => `fac_bench_${label}_${randomBytes(5).toString('hex')}`;
