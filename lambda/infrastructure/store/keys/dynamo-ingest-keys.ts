import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { perMinutePolicy } from '../../../kernel/rate-limit';
import type { Admission, ExposureMark, IngestKeyAuthorizer, IngestKeyCheck, PublishableKey } from '../../../ingest/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression } from '../expression';
import type { KeyItem } from './key-item';
import { RateLeases, type LeaseTarget } from '../rate-leases';
import { notRepeated } from '../request-token';
import { KEYS_KEY } from '../schema';

const publishableKeyOf = (item: KeyItem): PublishableKey => ({
  factoryId: item.factoryId,
  keyId: item.keyId,
  origins: item.origins ?? [],
  rateLimit: item.rateLimit,
  ...(item.servers === true ? { servers: true } : {}),
  ...(item.sentryProjectId === undefined ? {} : { sentryProjectId: item.sentryProjectId }),
});

const isActivePublishable = (item: Record<string, unknown> | undefined): boolean => item?.status === 'active' && item.keyType === 'publishable';

/** How long a container may answer for a key from what it saw of it, and hand out a lease of its requests. */
export const KEY_LEASE_MS = 1000;

/**
 * The ingest API's key calls on the keys table
 * (docs/capacity.md#limiters-that-write-once-a-lease):
 * - a publishable key: its per-minute limit taken in leases (rate-leases.ts),
 *   each one conditional UpdateItem that also checks the key is active and
 *   publishable, so the key's item is written once per lease per container,
 *   never once per request; between leases the container answers from what
 *   the last one returned, for at most KEY_LEASE_MS (a revoked key is refused
 *   within that);
 * - a secret key seen here: one conditional UpdateItem that records the
 *   sighting on its item (first and last time, count), only if it exists and
 *   is a secret key: an unknown key creates nothing.
 */
export class DynamoIngestKeys implements IngestKeyAuthorizer {
  private readonly leases: RateLeases;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    leaseMs: number = KEY_LEASE_MS,
  ) {
    this.leases = new RateLeases(doc, leaseMs);
  }

  async authenticate(keyHash: string, nowMs: number): Promise<IngestKeyCheck> {
    const seen = this.leases.fresh(keyHash, nowMs);
    if (seen) return this.checked(keyHash, seen);
    // Not seen lately: a lease taken now checks it (its first request is this one's, counted by admitRequest).
    const taken = await this.leases.take(keyHash, this.target(keyHash, undefined), nowMs);
    if (taken.outcome === 'admitted') this.unspent.add(keyHash);
    return this.checked(keyHash, taken.item);
  }

  async admitRequest(key: PublishableKey, keyHash: string, nowMs: number): Promise<Admission | { admitted: false; revoked: true }> {
    // The request that authenticate() took with its lease: counted already.
    if (this.unspent.delete(keyHash)) return { admitted: true };
    const taken = await this.leases.take(keyHash, this.target(keyHash, key.rateLimit), nowMs);
    if (taken.outcome === 'admitted') return { admitted: true };
    if (taken.outcome === 'limited') return { admitted: false, retryAfterSeconds: taken.retryAfterSeconds };
    // Revoked since this container last looked (the lease it needed found out).
    this.leases.forget(keyHash);
    return { admitted: false, revoked: true };
  }

  async markExposed(keyHash: string, nowMs: number): Promise<ExposureMark> {
    const request = randomUUID();
    const expression = new Expression();
    const at = expression.value(new Date(nowMs).toISOString());
    const token = expression.value(request);
    expression
      .setOnce('exposedFirstAt', at)
      .set('exposedLastAt', at)
      .set('exposedLastRequest', token)
      .add('exposedCount', 1)
      .when(expression.exists(KEYS_KEY.partitionKey), expression.is('keyType', '=', 'secret'), notRepeated(expression, 'exposedLastRequest', token));
    const command = new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      ...expression.forUpdate(),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    let item: KeyItem;
    try {
      item = (await storageCall('UpdateItem (mark key exposed)', () => this.doc.send(command))).Attributes as KeyItem;
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
    const item = this.leases.lastSeen(keyHash) as KeyItem | undefined;
    return item && isActivePublishable(item as unknown as Record<string, unknown>) ? publishableKeyOf(item) : undefined;
  }

  /** Requests authenticate() took from a lease it had to take, not yet spent by admitRequest(). */
  private readonly unspent = new Set<string>();

  private checked(keyHash: string, item: Record<string, unknown> | undefined): IngestKeyCheck {
    if (isActivePublishable(item)) return { outcome: 'active', key: publishableKeyOf(item as unknown as KeyItem) };
    this.leases.forget(keyHash);
    return { outcome: item?.keyType === 'publishable' ? 'revoked' : 'unknown' };
  }

  /** The key's item as a limiter: GCRA in rlTat, guarded by its status and type; `rateLimit` when the caller knows it. */
  private target(keyHash: string, rateLimit: number | undefined): LeaseTarget {
    return {
      operation: 'UpdateItem (publishable key lease)',
      tableName: this.tableName,
      key: { [KEYS_KEY.partitionKey]: keyHash },
      tatAttribute: 'rlTat',
      tokenAttribute: 'rlLastRequest',
      policy: rateLimit === undefined ? undefined : perMinutePolicy(rateLimit),
      policyOf: (item) => (typeof item.rateLimit === 'number' ? perMinutePolicy(item.rateLimit) : undefined),
      // A container's first lease of a key knows nothing of it: one request, T from rlStep (written at issue).
      firstWrite: (expression, now) => {
        expression
          .setSum('rlTat', now, expression.attribute('rlStep'))
          .when(expression.or(expression.notExists('rlTat'), expression.is('rlTat', '<=', now)), expression.exists('rlStep'));
      },
      guard: (expression) => [expression.is('status', '=', 'active'), expression.is('keyType', '=', 'publishable')],
      guardHolds: isActivePublishable,
      alsoSet: (expression, nowMs) => expression.set('lastUsedAt', new Date(nowMs).toISOString()),
    };
  }
}
