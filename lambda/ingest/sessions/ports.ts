import type { DistinctSketch } from '../../kernel/distinct-sketch';
import type { ReleaseRef, SessionCounters } from './release-health';

/** A release as stored (docs/release-health.md#what-is-stored): its lifetime counters, its users' sketches, when it was first and last counted. */
export interface ReleaseRecord extends ReleaseRef {
  factoryId: string;
  firstSeen: string;
  lastSeen: string;
  counters: SessionCounters;
  users?: DistinctSketch;
  crashedUsers?: DistinctSketch;
}

/** Where a list of releases left off: the last one handed out. */
export interface ReleasePosition {
  firstSeen: string;
  key: string;
}

/** Reads release health (lambda/infrastructure/store/reports/release-reader.ts). */
export interface ReleaseStore {
  /** The factory's releases, newest first (first seen), after `after` when given; `next` when more remain. */
  listReleases(factoryId: string, options: { limit: number; after?: ReleasePosition }): Promise<{ releases: ReleaseRecord[]; next?: ReleasePosition }>;
  findRelease(factoryId: string, ref: ReleaseRef): Promise<ReleaseRecord | undefined>;
  /** The counters of these hours (epoch hours) of each release; hours with none are absent. */
  releaseHours(factoryId: string, refs: readonly ReleaseRef[], hours: readonly number[]): Promise<Map<string, Map<number, SessionCounters>>>;
  /** Sessions started in the factory per hour (all releases); hours with none are absent. */
  factoryHours(factoryId: string, hours: readonly number[]): Promise<Map<number, number>>;
}

/** What a key's SDKs said they discarded over some days: per reason and category, summed. */
export interface DiscardedByKey {
  keyId: string;
  days: number;
  discarded: { reason: string; category: string; quantity: number }[];
}

/** Reads the client report counts kept per key and day (docs/release-health.md#what-the-sdks-dropped). */
export interface ClientReportStore {
  discardedByKeys(keyIds: readonly string[], days: readonly string[]): Promise<DiscardedByKey[]>;
}
