import { sha256Hex } from '../../../kernel/hash';
import { decodeRegisters, encodeRegisters, SKETCH_HASH_LENGTH, type DistinctSketch } from '../../../kernel/distinct-sketch';
import { SESSION_COUNTERS, zeroCounters, type ReleaseRef, type SessionCounters } from '../../../ingest/sessions/release-health';

/**
 * The reports table's release health items (docs/release-health.md#what-is-stored), written by the tally
 * (release-writes.ts) and read by the control room (release-reader.ts):
 *   release       `release#<factory>#<ref>`: its environment and name, first seen (the byFeed sort key, set once),
 *                 lifetime counters, marks;
 *   release users `relu#<factory>#<ref>`: its users' and crashed users' sketches and their version;
 *   release hour  `relh#<factory>#<ref>#<epoch hour>`: the counters of sessions started in that hour, marks;
 *   factory hour  `fach#<factory>#<epoch hour>`: sessions started in that hour over all its releases (adoption).
 * `<ref>` is a hash of environment and release, so any text a sender names makes a key of one shape.
 * Marks are top-level attributes `mk_<shard>` (release-writes.ts).
 */

/** Days release items are kept after their last write; an hour's items after their hour. */
export const RELEASE_KEEP_DAYS = 400;
export const HOUR_KEEP_DAYS = 90;

/** The byFeed partition of a factory's releases, newest (first seen) first. */
export const releasesFeed = (factoryId: string): string => `${factoryId}#releases`;

/** The short, fixed-shape id of a release of one environment. */
export const releaseRef = ({ environment, release }: ReleaseRef): string => sha256Hex(JSON.stringify([environment, release])).slice(0, 24);

export const releaseKey = (factoryId: string, ref: ReleaseRef): string => `release#${factoryId}#${releaseRef(ref)}`;
/** The release hour items' key prefix: the alert notifier's stream filter takes them (lib/alerts.ts). */
export const RELEASE_HOUR_PREFIX = 'relh#';
export const releaseHourKey = (factoryId: string, ref: ReleaseRef, hour: number): string => `${RELEASE_HOUR_PREFIX}${factoryId}#${releaseRef(ref)}#${hour}`;
export const releaseUsersKey = (factoryId: string, ref: ReleaseRef): string => `relu#${factoryId}#${releaseRef(ref)}`;
export const factoryHourKey = (factoryId: string, hour: number): string => `fach#${factoryId}#${hour}`;
/** What a key's SDKs said they discarded on one UTC day (docs/release-health.md#what-the-sdks-dropped). */
export const clientReportKey = (keyId: string, day: string): string => `crep#${keyId}#${day}`;
/** A client report counter's attribute: `d_<reason>__<category>` (both from the known lists or `other`: see session-reports.ts). */
export const DISCARD_PREFIX = 'd_';
export const discardAttribute = (reason: string, category: string): string => `${DISCARD_PREFIX}${reason}__${category}`;
export function discardOf(attribute: string): { reason: string; category: string } | undefined {
  if (!attribute.startsWith(DISCARD_PREFIX)) return undefined;
  const [reason, category] = attribute.slice(DISCARD_PREFIX.length).split('__');
  return reason && category ? { reason, category } : undefined;
}
/** Days a key's client report counts are kept. */
export const CLIENT_REPORT_KEEP_DAYS = 90;

/** The prefix of a counting item's per-shard marks. */
export const MARK_PREFIX = 'mk_';

export const RELEASE_ATTRIBUTES = { users: 'users', crashedUsers: 'crashedUsers', sketchVersion: 'sv' } as const;

/** A sketch as stored: `x` and the exact hashes, or `r` and the registers. */
export function encodeSketch(sketch: DistinctSketch): string {
  return sketch.kind === 'exact' ? `x${sketch.hashes.join('')}` : `r${encodeRegisters(sketch.registers)}`;
}

/** A stored sketch read back; undefined for anything else. */
export function decodeSketch(text: unknown): DistinctSketch | undefined {
  if (typeof text !== 'string' || text === '') return undefined;
  const body = text.slice(1);
  if (text[0] === 'x') {
    if (body.length % SKETCH_HASH_LENGTH !== 0) return undefined;
    const hashes: string[] = [];
    for (let at = 0; at < body.length; at += SKETCH_HASH_LENGTH) hashes.push(body.slice(at, at + SKETCH_HASH_LENGTH));
    return { kind: 'exact', hashes };
  }
  if (text[0] === 'r') {
    const registers = decodeRegisters(body);
    return registers ? { kind: 'registers', registers } : undefined;
  }
  return undefined;
}

/** The counters an item holds (absent ones 0). */
export function countersOf(item: Record<string, unknown>): SessionCounters {
  const counters = zeroCounters();
  for (const name of SESSION_COUNTERS) {
    const value = item[name];
    if (typeof value === 'number' && Number.isFinite(value)) counters[name] = value;
  }
  return counters;
}
