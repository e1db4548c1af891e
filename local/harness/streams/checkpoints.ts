import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/** Where a consumer is in one shard of the stream. */
export interface ShardPlace {
  iterator?: string;
  /** The last record handed over (successfully, or given up on). */
  after?: string;
  closed: boolean;
  /** While a batch keeps failing: how many records to read at once (bisected), the tries of the failing record, and where the batch that first failed ended. */
  failing?: { size: number; tries: number; until: string };
}

/** Each consumer's places, by shard id. */
export type Places = Map<string, Map<string, ShardPlace>>;

/** What the checkpoint file holds: per consumer, its stream and the last record handed over in each shard. */
type Checkpoints = Record<string, { streamArn: string; shards: Record<string, string> }>;

function readCheckpoints(file: string | undefined): Checkpoints {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
  } catch {
    return {};
  }
}

/**
 * Each consumer's places to start from: those the file kept for this same
 * stream (a table made again has a new stream, read from its start), none
 * otherwise.
 */
export function startingPlaces(file: string | undefined, consumers: readonly string[], streamArn: string): Places {
  const saved = readCheckpoints(file);
  const places: Places = new Map();
  for (const name of consumers) {
    const checkpoint = saved[name];
    const shards = new Map<string, ShardPlace>();
    if (checkpoint?.streamArn === streamArn) for (const [shardId, after] of Object.entries(checkpoint.shards)) shards.set(shardId, { after, closed: false });
    places.set(name, shards);
  }
  return places;
}

/** Keeps every consumer's last record per shard in the file, for the next start. */
export function saveCheckpoints(file: string | undefined, places: Places, streamArn: string): void {
  if (!file) return;
  const data: Checkpoints = {};
  for (const [name, shards] of places) {
    data[name] = { streamArn, shards: Object.fromEntries([...shards].flatMap(([id, place]) => (place.after ? [[id, place.after]] : []))) };
  }
  writeFileSync(file, JSON.stringify(data));
}
