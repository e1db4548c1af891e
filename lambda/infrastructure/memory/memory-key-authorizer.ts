import type { AuthDecision, KeyAuthorizer } from '../../contacts/domain/ports';
import { decideRate, perMinutePolicy, toMicroseconds } from '../../kernel/rate-limit';

interface MemoryKey {
  factoryId: string;
  keyId: string;
  rateLimit: number;
  status: 'active' | 'revoked';
  tatUs?: number;
}

/**
 * KeyAuthorizer in memory: a map of secret-key hashes, limited by the same
 * pure rule (decideRate) the DynamoDB authorizer writes with conditions.
 */
export class MemoryKeyAuthorizer implements KeyAuthorizer {
  private readonly keys = new Map<string, MemoryKey>();
  private readonly seen = new Map<string, { factoryId: string; keyId: string }>();

  /** Adds an active secret key, by the hash the API looks it up with. */
  issue(keyHash: string, key: { factoryId: string; keyId: string; rateLimit: number }): void {
    this.keys.set(keyHash, { ...key, status: 'active' });
  }

  revoke(keyHash: string): void {
    const key = this.keys.get(keyHash);
    if (key) key.status = 'revoked';
  }

  async authorize(keyHash: string, nowMs: number): Promise<AuthDecision> {
    const key = this.keys.get(keyHash);
    if (!key) return { outcome: 'unknown' };
    if (key.status === 'revoked') {
      this.seen.delete(keyHash);
      return { outcome: 'revoked' };
    }
    const decision = decideRate({ tatUs: key.tatUs }, toMicroseconds(nowMs), perMinutePolicy(key.rateLimit));
    const rate = { limit: key.rateLimit, remaining: decision.remaining, windowSeconds: decision.windowSeconds };
    if (!decision.admitted) return { outcome: 'throttled', retryAfterSeconds: decision.retryAfterSeconds, rate };
    key.tatUs = decision.tatUs;
    this.seen.set(keyHash, { factoryId: key.factoryId, keyId: key.keyId });
    return { outcome: 'allowed', factoryId: key.factoryId, keyId: key.keyId, rate };
  }

  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined {
    return this.seen.get(keyHash);
  }
}
