import type { RateStatus } from '../domain/ports';
import { decideRate, perMinutePolicy, toMicroseconds } from '../domain/rate-limit';
import type { ExposureMark, IngestKeyAuthorizer, IngestKeyDecision, PublishableKey } from '../ingest/ports';

interface MemoryKey {
  type: 'secret' | 'publishable';
  factoryId: string;
  keyId: string;
  origins: string[];
  rateLimit: number;
  status: 'active' | 'revoked';
  tatUs?: number;
  exposed?: { firstSeenAt: string; lastSeenAt: string; count: number };
}

/**
 * IngestKeyAuthorizer in memory: keys by hash, limited by the same pure rule
 * (decideRate) the DynamoDB adapter writes with conditions.
 */
export class MemoryIngestKeys implements IngestKeyAuthorizer {
  private readonly keys = new Map<string, MemoryKey>();
  private readonly seen = new Map<string, PublishableKey>();

  /** Adds an active key, by the hash the API looks it up with. */
  issue(keyHash: string, key: { type: 'secret' | 'publishable'; factoryId: string; keyId: string; rateLimit: number; origins?: string[] }): void {
    this.keys.set(keyHash, { ...key, origins: key.origins ?? [], status: 'active' });
  }

  revoke(keyHash: string): void {
    const key = this.keys.get(keyHash);
    if (key) key.status = 'revoked';
  }

  /** The sightings recorded on a secret key. */
  exposureOf(keyHash: string): MemoryKey['exposed'] {
    return this.keys.get(keyHash)?.exposed;
  }

  async authorize(keyHash: string, nowMs: number): Promise<IngestKeyDecision> {
    const found = this.keys.get(keyHash);
    if (!found || found.type !== 'publishable') return { outcome: 'unknown' };
    if (found.status === 'revoked') {
      this.seen.delete(keyHash);
      return { outcome: 'revoked' };
    }
    const key: PublishableKey = { factoryId: found.factoryId, keyId: found.keyId, origins: [...found.origins] };
    const decision = decideRate({ tatUs: found.tatUs }, toMicroseconds(nowMs), perMinutePolicy(found.rateLimit));
    const rate: RateStatus = { limit: found.rateLimit, remaining: decision.remaining, windowSeconds: decision.windowSeconds };
    if (!decision.admitted) return { outcome: 'throttled', key, retryAfterSeconds: decision.retryAfterSeconds, rate };
    found.tatUs = decision.tatUs;
    this.seen.set(keyHash, key);
    return { outcome: 'allowed', key, rate };
  }

  async markExposed(keyHash: string, nowMs: number): Promise<ExposureMark> {
    const found = this.keys.get(keyHash);
    if (!found || found.type !== 'secret') return { marked: false };
    const at = new Date(nowMs).toISOString();
    found.exposed = { firstSeenAt: found.exposed?.firstSeenAt ?? at, lastSeenAt: at, count: (found.exposed?.count ?? 0) + 1 };
    return { marked: true, keyId: found.keyId, factoryId: found.factoryId, count: found.exposed.count };
  }

  knownKey(keyHash: string): PublishableKey | undefined {
    return this.seen.get(keyHash);
  }
}
