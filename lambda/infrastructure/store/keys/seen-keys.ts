import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyType } from '../../../kernel/api-key';
import type { RateStatus } from '../../../contacts/domain/ports';
import { toMicroseconds } from '../../../kernel/rate-limit';
import type { KeyItem } from './key-item';
import { countKeyRequest, type LimiterGuess } from './key-limiter';

/** A key call's outcome, with what the API keeps of a known key (`Known`) in place of its item. */
export type CountedKey<Known> =
  | { outcome: 'allowed'; key: Known; rate: RateStatus }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  | { outcome: 'throttled'; key: Known; retryAfterSeconds: number; rate: RateStatus };

/** Keys remembered per container: only active keys land here, and a container serves few. */
const MAX_SEEN = 10_000;

/**
 * The key calls of one key type (countKeyRequest) with the container's
 * memory of the keys it found active: what the API keeps of each (`known`:
 * the caller; for a publishable key, its origins too; none of it ever
 * changes) and the limiter state it last saw, which picks the next
 * request's update shape. A key found unknown or revoked is forgotten.
 * Shared by both APIs' authorizers.
 */
export class SeenKeys<Known> {
  private readonly seen = new Map<string, { known: Known; guess: LimiterGuess }>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly keyType: KeyType,
    private readonly knownOf: (item: KeyItem) => Known,
  ) {}

  async count(keyHash: string, nowMs: number): Promise<CountedKey<Known>> {
    const call = await countKeyRequest(this.doc, this.tableName, this.keyType, keyHash, toMicroseconds(nowMs), this.seen.get(keyHash)?.guess);
    if (call.outcome === 'unknown' || call.outcome === 'revoked') {
      this.seen.delete(keyHash);
      return { outcome: call.outcome };
    }
    const key = this.remember(keyHash, call.item);
    return call.outcome === 'allowed'
      ? { outcome: 'allowed', key, rate: call.rate }
      : { outcome: 'throttled', key, retryAfterSeconds: call.retryAfterSeconds, rate: call.rate };
  }

  /** What the API keeps of a key this container found active, without I/O. */
  known(keyHash: string): Known | undefined {
    return this.seen.get(keyHash)?.known;
  }

  private remember(keyHash: string, item: KeyItem): Known {
    if (this.seen.size > MAX_SEEN) this.seen.clear();
    const known = this.knownOf(item);
    this.seen.set(keyHash, { known, guess: { rateLimit: item.rateLimit, tatUs: item.rlTat } });
    return known;
  }
}
