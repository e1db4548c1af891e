import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { releaseRefId as refId, type ReleaseRef, type SessionCounters } from '../../../ingest/sessions/release-health';
import type { ClientReportStore, DiscardedByKey, ReleasePosition, ReleaseRecord, ReleaseStore } from '../../../ingest/sessions/ports';
import { batchGet } from '../batch-get';
import { storageCall } from '../errors';
import { REPORTS_BY_FEED } from '../schema';
import {
  clientReportKey,
  countersOf,
  decodeSketch,
  discardOf,
  factoryHourKey,
  RELEASE_ATTRIBUTES,
  releaseHourKey,
  releaseKey,
  releasesFeed,
  releaseUsersKey,
} from './release-items';

type Item = Record<string, unknown>;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A release item and its users' item read as one record; undefined for an item that is not a release's. */
function recordOf(item: Item, users: Item | undefined): ReleaseRecord | undefined {
  if (typeof item.release !== 'string' || typeof item.environment !== 'string' || typeof item.factoryId !== 'string') return undefined;
  const sketch = decodeSketch(users?.[RELEASE_ATTRIBUTES.users]);
  const crashed = decodeSketch(users?.[RELEASE_ATTRIBUTES.crashedUsers]);
  return {
    factoryId: item.factoryId,
    environment: item.environment,
    release: item.release,
    firstSeen: text(item.receivedAt),
    lastSeen: text(item.lastSeen),
    counters: countersOf(item),
    ...(sketch ? { users: sketch } : {}),
    ...(crashed ? { crashedUsers: crashed } : {}),
  };
}

/** The release items of the reports table (release-items.ts), read for the control room and `reports releases`. */
export class DynamoReleaseReader implements ReleaseStore, ClientReportStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async listReleases(factoryId: string, options: { limit: number; after?: ReleasePosition }) {
    const { after, limit } = options;
    const result = await storageCall('Query (releases)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: REPORTS_BY_FEED.indexName,
          KeyConditionExpression: '#feed = :feed',
          ExpressionAttributeNames: { '#feed': REPORTS_BY_FEED.partitionKey },
          ExpressionAttributeValues: { ':feed': releasesFeed(factoryId) },
          ScanIndexForward: false,
          Limit: limit + 1,
          ...(after
            ? { ExclusiveStartKey: { pk: after.key, [REPORTS_BY_FEED.partitionKey]: releasesFeed(factoryId), [REPORTS_BY_FEED.sortKey]: after.firstSeen } }
            : {}),
        }),
      ),
    );
    const keys = (result.Items ?? []).map((item) => text(item.pk)).filter((pk) => pk !== '');
    const page = keys.slice(0, limit);
    const records = await this.records(page);
    const last = records[records.length - 1];
    return { releases: records, ...(keys.length > limit && last ? { next: { firstSeen: last.firstSeen, key: releaseKey(factoryId, last) } } : {}) };
  }

  async findRelease(factoryId: string, ref: ReleaseRef): Promise<ReleaseRecord | undefined> {
    const [record] = await this.records([releaseKey(factoryId, ref)]);
    return record;
  }

  async releaseHours(factoryId: string, refs: readonly ReleaseRef[], hours: readonly number[]) {
    const keys = refs.flatMap((ref) => hours.map((hour) => ({ pk: releaseHourKey(factoryId, ref, hour), ref, hour })));
    const items = await batchGet<Item>(
      this.doc,
      this.tableName,
      keys.map(({ pk }) => ({ pk })),
      { operation: 'BatchGetItem (release hours)' },
    );
    const byKey = new Map(items.map((item) => [text(item.pk), item]));
    const answer = new Map<string, Map<number, SessionCounters>>();
    for (const { pk, ref, hour } of keys) {
      const item = byKey.get(pk);
      if (!item) continue;
      const hoursOf = answer.get(refId(ref)) ?? new Map<number, SessionCounters>();
      hoursOf.set(hour, countersOf(item));
      answer.set(refId(ref), hoursOf);
    }
    return answer;
  }

  async factoryHours(factoryId: string, hours: readonly number[]) {
    const items = await batchGet<Item>(
      this.doc,
      this.tableName,
      hours.map((hour) => ({ pk: factoryHourKey(factoryId, hour) })),
      { operation: 'BatchGetItem (factory hours)' },
    );
    return new Map(items.map((item) => [Number(item.hour), countersOf(item).started]));
  }

  async discardedByKeys(keyIds: readonly string[], days: readonly string[]): Promise<DiscardedByKey[]> {
    const keys = keyIds.flatMap((keyId) => days.map((day) => ({ pk: clientReportKey(keyId, day) })));
    const items = await batchGet<Item>(this.doc, this.tableName, keys, { operation: 'BatchGetItem (client reports)' });
    const sums = new Map<string, Map<string, { reason: string; category: string; quantity: number }>>();
    for (const item of items) {
      const keyId = text(item.keyId);
      const ofKey = sums.get(keyId) ?? new Map();
      for (const [name, value] of Object.entries(item)) {
        const pair = discardOf(name);
        if (!pair || typeof value !== 'number') continue;
        const id = `${pair.reason} ${pair.category}`;
        const sum = ofKey.get(id) ?? { ...pair, quantity: 0 };
        sum.quantity += value;
        ofKey.set(id, sum);
      }
      sums.set(keyId, ofKey);
    }
    return keyIds.map((keyId) => ({
      keyId,
      days: days.length,
      discarded: [...(sums.get(keyId)?.values() ?? [])].sort((a, b) => b.quantity - a.quantity || (a.reason < b.reason ? -1 : 1)),
    }));
  }

  /** The release items of these keys with their users' items, in the keys' order. */
  private async records(keys: readonly string[]): Promise<ReleaseRecord[]> {
    if (keys.length === 0) return [];
    const items = await batchGet<Item>(
      this.doc,
      this.tableName,
      keys.map((pk) => ({ pk })),
      { operation: 'BatchGetItem (releases)' },
    );
    const found = new Map(items.map((item) => [text(item.pk), item]));
    const usersKeys = items.flatMap((item) =>
      typeof item.factoryId === 'string' && typeof item.release === 'string' && typeof item.environment === 'string'
        ? [releaseUsersKey(item.factoryId, { environment: item.environment, release: item.release })]
        : [],
    );
    const users = new Map(
      (
        await batchGet<Item>(
          this.doc,
          this.tableName,
          usersKeys.map((pk) => ({ pk })),
          { operation: 'BatchGetItem (release users)' },
        )
      ).map((item) => [text(item.pk), item]),
    );
    return keys.flatMap((key) => {
      const item = found.get(key);
      if (!item) return [];
      const record = recordOf(item, users.get(releaseUsersKey(text(item.factoryId), { environment: text(item.environment), release: text(item.release) })));
      return record ? [record] : [];
    });
  }
}
