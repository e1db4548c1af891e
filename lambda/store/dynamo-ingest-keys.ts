import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CallLog } from '../domain/ports';
import { toMicroseconds } from '../domain/rate-limit';
import type { ExposureMark, IngestKeyAuthorizer, IngestKeyDecision, PublishableKey } from '../ingest/ports';
import { isConditionalCheckFailed, storageCall } from './errors';
import type { KeyItem } from './key-item';
import { countKeyRequest, itemOfFailure, NOT_REPEATED, type LimiterGuess } from './key-limiter';

/** What this container last saw of a publishable key: its identity and origins (never change) and its limiter state. */
interface Seen extends LimiterGuess {
  key: PublishableKey;
}

const publishableKeyOf = (item: KeyItem): PublishableKey => ({ factoryId: item.factoryId, keyId: item.keyId, origins: item.origins ?? [] });

/**
 * The ingest API's key calls on the keys table:
 * - a publishable key: the same one conditional UpdateItem as the contacts
 *   API's secret keys (countKeyRequest: active, of type publishable, per-key
 *   GCRA limit), whose answer also carries the key's origins;
 * - a secret key seen here: one conditional UpdateItem that records the
 *   sighting on its item (first and last time, count), only if it exists and
 *   is a secret key: an unknown key creates nothing.
 * Keys allowed in this container are remembered (tenant, key id, origins),
 * as the contacts API remembers its callers, for the per-address limiter's
 * call to run beside the key call.
 */
export class DynamoIngestKeys implements IngestKeyAuthorizer {
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async authorize(keyHash: string, nowMs: number, log?: CallLog): Promise<IngestKeyDecision> {
    const call = await countKeyRequest(this.doc, this.tableName, 'publishable', keyHash, toMicroseconds(nowMs), this.seen.get(keyHash), log);
    switch (call.outcome) {
      case 'unknown':
      case 'revoked':
        this.seen.delete(keyHash);
        return { outcome: call.outcome };
      case 'throttled':
        return {
          outcome: 'throttled',
          key: this.remember(keyHash, call.item),
          retryAfterSeconds: call.retryAfterSeconds,
          rate: call.rate,
        };
      case 'allowed':
        return { outcome: 'allowed', key: this.remember(keyHash, call.item), rate: call.rate };
    }
  }

  async markExposed(keyHash: string, nowMs: number, log?: CallLog): Promise<ExposureMark> {
    const request = randomUUID();
    const command = new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      UpdateExpression: 'SET #first = if_not_exists(#first, :iso), #last = :iso, #lastRequest = :request ADD #count :one',
      ConditionExpression: `attribute_exists(keyHash) AND #keyType = :secret AND ${NOT_REPEATED}`,
      ExpressionAttributeNames: {
        '#first': 'exposedFirstAt',
        '#last': 'exposedLastAt',
        '#count': 'exposedCount',
        '#keyType': 'keyType',
        '#lastRequest': 'exposedLastRequest',
      },
      ExpressionAttributeValues: { ':iso': new Date(nowMs).toISOString(), ':secret': 'secret', ':one': 1, ':request': request },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    let item: KeyItem;
    try {
      item = (await storageCall('UpdateItem (mark key exposed)', () => this.doc.send(command), log)).Attributes as KeyItem;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const old = itemOfFailure<KeyItem>(error);
      // Our own earlier attempt landed (its answer was lost): counted once.
      if (old?.exposedLastRequest !== request) return { marked: false };
      item = old;
    }
    return { marked: true, keyId: item.keyId, factoryId: item.factoryId, count: item.exposedCount ?? 1 };
  }

  knownKey(keyHash: string): PublishableKey | undefined {
    return this.seen.get(keyHash)?.key;
  }

  private remember(keyHash: string, item: KeyItem): PublishableKey {
    // Bounded: only active publishable keys land here, and a container serves few.
    if (this.seen.size > 10_000) this.seen.clear();
    const key = publishableKeyOf(item);
    this.seen.set(keyHash, { key, rateLimit: item.rateLimit, tatUs: item.rlTat });
    return key;
  }
}
