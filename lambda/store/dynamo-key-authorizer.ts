import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuthDecision, CallLog, KeyAuthorizer } from '../domain/ports';
import { toMicroseconds } from '../domain/rate-limit';
import type { KeyItem } from './key-item';
import { countKeyRequest, type LimiterGuess } from './key-limiter';

/** What this container last saw of a key: its identity (never changes) and its limiter state. */
interface Seen extends LimiterGuess {
  factoryId: string;
  keyId: string;
}

/**
 * The contacts API's key check: a secret key's authentication and rate
 * limit in one conditional UpdateItem on the key's item (countKeyRequest in
 * key-limiter.ts, where the algorithm and its retries are described), with
 * the container's positive cache of keys seen allowed.
 */
export class DynamoKeyAuthorizer implements KeyAuthorizer {
  /** Per key hash allowed in this container. */
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async authorize(keyHash: string, nowMs: number, log?: CallLog): Promise<AuthDecision> {
    const call = await countKeyRequest(this.doc, this.tableName, 'secret', keyHash, toMicroseconds(nowMs), this.seen.get(keyHash), log);
    switch (call.outcome) {
      case 'unknown':
      case 'revoked':
        this.seen.delete(keyHash);
        return { outcome: call.outcome };
      case 'throttled':
        this.remember(keyHash, call.item);
        return { outcome: 'throttled', retryAfterSeconds: call.retryAfterSeconds, rate: call.rate };
      case 'allowed':
        this.remember(keyHash, call.item);
        return { outcome: 'allowed', factoryId: call.item.factoryId, keyId: call.item.keyId, rate: call.rate };
    }
  }

  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined {
    const known = this.seen.get(keyHash);
    return known && { factoryId: known.factoryId, keyId: known.keyId };
  }

  private remember(keyHash: string, item: KeyItem): void {
    // Bounded: only active secret keys land here, and a container serves few.
    if (this.seen.size > 10_000) this.seen.clear();
    this.seen.set(keyHash, { factoryId: item.factoryId, keyId: item.keyId, rateLimit: item.rateLimit, tatUs: item.rlTat });
  }
}
