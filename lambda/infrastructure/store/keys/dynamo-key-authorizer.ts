import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AuthDecision, KeyAuthorizer } from '../../../contacts/domain/ports';
import { SeenKeys } from './seen-keys';

/**
 * The contacts API's key check: a secret key's authentication and rate
 * limit in one conditional UpdateItem on the key's item (countKeyRequest in
 * key-limiter.ts, where the algorithm and its retries are described), with
 * the container's positive cache of keys seen allowed (seen-keys.ts).
 */
export class DynamoKeyAuthorizer implements KeyAuthorizer {
  private readonly keys: SeenKeys<{ factoryId: string; keyId: string }>;

  constructor(doc: DynamoDBDocumentClient, tableName: string) {
    this.keys = new SeenKeys(doc, tableName, 'secret', (item) => ({ factoryId: item.factoryId, keyId: item.keyId }));
  }

  async authorize(keyHash: string, nowMs: number): Promise<AuthDecision> {
    const call = await this.keys.count(keyHash, nowMs);
    switch (call.outcome) {
      case 'unknown':
      case 'revoked':
        return call;
      case 'throttled':
        return { outcome: 'throttled', retryAfterSeconds: call.retryAfterSeconds, rate: call.rate };
      case 'allowed':
        return { outcome: 'allowed', factoryId: call.key.factoryId, keyId: call.key.keyId, rate: call.rate };
    }
  }

  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined {
    return this.keys.known(keyHash);
  }
}
