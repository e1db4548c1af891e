import { GetCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from '../../../kernel/errors';
import { addHashes, emptySketch, wouldChange } from '../../../kernel/distinct-sketch';
import { countExactlyOnce, markOf, MAX_ROUNDS, staleMarks, type FoundItem } from '../../../ingest/tally/exactly-once';
import { releaseDeltas, type SessionCounters } from '../../../ingest/sessions/release-health';
import type { ReleaseCounts, ReleaseCountsStore, Sequence, SequencedDiscardCount, SequencedSessionCount } from '../../../ingest/tally/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression } from '../expression';
import { applyDelta, conditionalUpdate, markedAt, notCountedYet, type CounterDelta } from './counting-writes';
import { EXPIRES_AT } from '../schema';
import {
  CLIENT_REPORT_KEEP_DAYS,
  clientReportKey,
  discardAttribute,
  decodeSketch,
  encodeSketch,
  factoryHourKey,
  HOUR_KEEP_DAYS,
  MARK_PREFIX,
  RELEASE_ATTRIBUTES,
  RELEASE_KEEP_DAYS,
  releaseHourKey,
  releaseKey,
  releasesFeed,
  releaseUsersKey,
} from './release-items';

type Item = Record<string, unknown>;
const DAY_SECONDS = 86_400;

/** The counters a list of counts adds, by status. */
function summed(counts: readonly SequencedSessionCount[]): Record<string, number> {
  const add: Partial<SessionCounters> = {};
  for (const count of counts) add[count.status] = (add[count.status] ?? 0) + count.count;
  return add;
}

function byHour(counts: readonly SequencedSessionCount[]): Map<number, SequencedSessionCount[]> {
  const hours = new Map<number, SequencedSessionCount[]>();
  for (const count of counts) hours.set(count.hour, [...(hours.get(count.hour) ?? []), count]);
  return hours;
}

/**
 * The tally's writes of release health (docs/release-health.md#how-it-is-counted): per batch, one counting write per
 * release, one per release and hour, one per factory and hour, and the release's users' sketches when they change.
 * Counting writes are driven by the issues' one protocol (lambda/ingest/tally/exactly-once.ts, countExactlyOnce)
 * through the same conditional write (counting-writes.ts): each item keeps per stream shard the last record it counted
 * (a top-level `mk_<shard>`, so a new item needs no map made first), and a write counts only the records after it,
 * moving it in the same conditional write. A refused write returns the item, whose mark drops what it counted already. The sketches need no mark: adding the same user twice changes nothing;
 * their write is conditional on the version read, so two consumers never lose each other's users.
 */
export class DynamoReleaseStore implements ReleaseCountsStore {
  /** The sketches item as this container last saw it, per key: the first guess of its next merge. */
  private readonly sketches = new Map<string, Item>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly now: () => number = Date.now,
  ) {}

  async addToRelease(shardKey: string, group: ReleaseCounts): Promise<void> {
    const { factoryId, environment, release, counts } = group;
    if (counts.length === 0) return;
    const ref = { environment, release };
    const nowMs = this.now();
    const nowSeconds = Math.floor(nowMs / 1000);
    const writes: Promise<void>[] = [
      this.countInto(releaseKey(factoryId, ref), shardKey, counts, 'release', (pending) => ({
        add: summed(pending),
        set: { factoryId, environment, release, lastSeen: new Date(nowMs).toISOString(), [EXPIRES_AT]: nowSeconds + RELEASE_KEEP_DAYS * DAY_SECONDS },
        // First seen: the release's place in the factory's list (byFeed), set once.
        setOnce: { feed: releasesFeed(factoryId), receivedAt: new Date(nowMs).toISOString() },
      })),
      ...[...byHour(counts)].map(([hour, list]) =>
        this.countInto(releaseHourKey(factoryId, ref, hour), shardKey, list, 'release hour', (pending) => ({
          add: summed(pending),
          // The release and environment by name: the alert notifier reads the hour's health from this item alone.
          set: { factoryId, environment, release, hour, [EXPIRES_AT]: (hour + 1) * 3600 + HOUR_KEEP_DAYS * DAY_SECONDS },
        })),
      ),
    ];
    const [delta] = releaseDeltas(counts);
    if (delta && delta.users.length > 0) writes.push(this.mergeUsers(releaseUsersKey(factoryId, ref), delta.users, delta.crashedUsers, nowSeconds));
    await settle(writes);
  }

  async addToFactory(shardKey: string, factoryId: string, counts: readonly SequencedSessionCount[]): Promise<void> {
    // Adoption's denominator: the sessions started per hour over every release of the factory.
    const started = counts.filter((count) => count.status === 'started');
    await settle(
      [...byHour(started)].map(([hour, list]) =>
        this.countInto(factoryHourKey(factoryId, hour), shardKey, list, 'factory hour', (pending) => ({
          add: summed(pending),
          set: { factoryId, hour, [EXPIRES_AT]: (hour + 1) * 3600 + HOUR_KEEP_DAYS * DAY_SECONDS },
        })),
      ),
    );
  }

  async addDiscards(shardKey: string, keyId: string, day: string, counts: readonly SequencedDiscardCount[]): Promise<void> {
    const dayStart = Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000);
    await this.countInto(clientReportKey(keyId, day), shardKey, counts, 'client reports', (pending) => {
      const add: Record<string, number> = {};
      for (const row of pending) add[discardAttribute(row.reason, row.category)] = (add[discardAttribute(row.reason, row.category)] ?? 0) + row.quantity;
      return { add, set: { keyId, day, [EXPIRES_AT]: dayStart + CLIENT_REPORT_KEEP_DAYS * DAY_SECONDS } };
    });
  }

  /**
   * Counts the records into one counter item by the tally's protocol (countExactlyOnce) and its shared counting write
   * (counting-writes.ts). Its marks are top-level attributes, so an item is never unmarked, and the UpdateItem that
   * counts also makes an item not there yet: every row of the decision table is the same write, conditional only on
   * this shard's mark being before the first record still to count. A counter never expires by the tally's rule (its
   * expiry is DynamoDB's time to live), so its state does not depend on the time.
   */
  private async countInto<E extends { seq: Sequence }>(
    key: string,
    shardKey: string,
    counts: readonly E[],
    what: string,
    writeOf: (pending: readonly E[]) => CounterDelta,
  ): Promise<void> {
    const markName = `${MARK_PREFIX}${shardKey}`;
    const operation = `UpdateItem (${what} tally)`;
    const target = { doc: this.doc, tableName: this.tableName, key, operation, foundOf: (item: Item) => markedAt(item, markName) };
    let after: Item | undefined;
    await countExactlyOnce<E, FoundItem>(counts, {
      operation,
      believed: 'active',
      nowSeconds: () => 0,
      write: async ({ pending }) => {
        const update = applyDelta(new Expression(), writeOf(pending));
        update.set(markName, markOf((pending[pending.length - 1] as E).seq, this.now()));
        update.when(notCountedYet(update, markName, (pending[0] as E).seq));
        const outcome = await conditionalUpdate(target, update);
        if (outcome.landed) after = outcome.item;
        return outcome;
      },
    });
    if (after) await this.pruneMarks(key, after);
  }

  /** Removes the marks no record can come back for (older than a day and an hour): a release item outlives many shards. */
  private async pruneMarks(key: string, item: Item): Promise<void> {
    const marks = Object.fromEntries(Object.entries(item).filter(([name]) => name.startsWith(MARK_PREFIX)));
    const stale = staleMarks(marks, this.now());
    if (stale.length === 0) return;
    const update = new Expression();
    for (const name of stale) update.remove(name);
    update.when(update.exists('pk'));
    try {
      await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: key }, ...update.forUpdate() }));
    } catch {
      // Pruning is housekeeping: the next write prunes.
    }
  }

  /** The users (and crashed users) added to the release's sketches: read (or guessed), merged, written if the version is still the one read. */
  private async mergeUsers(key: string, users: readonly string[], crashedUsers: readonly string[], nowSeconds: number): Promise<void> {
    let item = this.sketches.get(key) ?? (await this.read(key));
    for (let round = 0; round < MAX_ROUNDS; round += 1) {
      const known = decodeSketch(item?.[RELEASE_ATTRIBUTES.users]) ?? emptySketch();
      const knownCrashed = decodeSketch(item?.[RELEASE_ATTRIBUTES.crashedUsers]) ?? emptySketch();
      if (!wouldChange(known, users) && !wouldChange(knownCrashed, crashedUsers)) return;
      const version = item?.[RELEASE_ATTRIBUTES.sketchVersion];
      const next: Item = {
        pk: key,
        [RELEASE_ATTRIBUTES.users]: encodeSketch(addHashes(known, users)),
        [RELEASE_ATTRIBUTES.crashedUsers]: encodeSketch(addHashes(knownCrashed, crashedUsers)),
        [RELEASE_ATTRIBUTES.sketchVersion]: (typeof version === 'number' ? version : 0) + 1,
        [EXPIRES_AT]: nowSeconds + RELEASE_KEEP_DAYS * DAY_SECONDS,
      };
      const update = new Expression();
      for (const [name, value] of Object.entries(next)) if (name !== 'pk') update.set(name, value);
      update.when(typeof version === 'number' ? update.is(RELEASE_ATTRIBUTES.sketchVersion, '=', version) : update.notExists(RELEASE_ATTRIBUTES.sketchVersion));
      try {
        await storageCall('UpdateItem (release users)', () =>
          this.doc.send(
            new UpdateCommand({ TableName: this.tableName, Key: { pk: key }, ...update.forUpdate(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
          ),
        );
        this.remember(key, next);
        return;
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        item = itemOfFailure<Item>(error);
      }
    }
    throw new StorageUnavailableError('UpdateItem (release users)', new Error(`the item kept changing under ${MAX_ROUNDS} attempts`));
  }

  private async read(key: string): Promise<Item | undefined> {
    const result = await storageCall('GetItem (release users)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: key }, ConsistentRead: true })),
    );
    return result.Item;
  }

  private remember(key: string, item: Item): void {
    if (this.sketches.size > 1_000) this.sketches.clear();
    this.sketches.set(key, item);
  }
}

/** Every write settles before the batch ends; the first failure fails the batch (delivered again, counted once). */
async function settle(writes: readonly Promise<void>[]): Promise<void> {
  const results = await Promise.allSettled(writes);
  const failed = results.find((result): result is PromiseRejectedResult => result.status === 'rejected');
  if (failed) throw failed.reason;
}
