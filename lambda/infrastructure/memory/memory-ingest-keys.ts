import { sentryProjectId } from '../../kernel/sentry-project';
import { decideRate, perMinutePolicy, toMicroseconds } from '../../kernel/rate-limit';
import type { Admission, ExposureMark, IngestKeyAuthorizer, IngestKeyCheck, PublishableKey } from '../../ingest/ports';

interface MemoryKey {
  type: 'secret' | 'publishable';
  factoryId: string;
  keyId: string;
  origins: string[];
  rateLimit: number;
  servers?: boolean;
  sentryProjectId?: string;
  status: 'active' | 'revoked';
  tatUs?: number;
  exposed?: { firstSeenAt: string; lastSeenAt: string; count: number };
}

/**
 * IngestKeyAuthorizer in memory: keys by hash, limited by the same pure rule
 * (decideRate) the DynamoDB adapter takes in leases; no lease here, so a
 * revocation holds from the next request.
 */
export class MemoryIngestKeys implements IngestKeyAuthorizer {
  private readonly keys = new Map<string, MemoryKey>();
  private readonly seen = new Map<string, PublishableKey>();

  /** Adds an active key, by the hash the API looks it up with. */
  issue(
    keyHash: string,
    key: { type: 'secret' | 'publishable'; factoryId: string; keyId: string; rateLimit: number; origins?: string[]; servers?: boolean },
  ): void {
    // A publishable key gets its DSN's project id when issued, as key admin gives it.
    const sentry = key.type === 'publishable' ? { sentryProjectId: sentryProjectId(key.keyId) } : {};
    this.keys.set(keyHash, { ...key, ...sentry, origins: key.origins ?? [], status: 'active' });
  }

  revoke(keyHash: string): void {
    const key = this.keys.get(keyHash);
    if (key) key.status = 'revoked';
  }

  /** The sightings recorded on a secret key. */
  exposureOf(keyHash: string): MemoryKey['exposed'] {
    return this.keys.get(keyHash)?.exposed;
  }

  async authenticate(keyHash: string): Promise<IngestKeyCheck> {
    const found = this.keys.get(keyHash);
    if (found?.type !== 'publishable') return { outcome: 'unknown' };
    if (found.status === 'revoked') {
      this.seen.delete(keyHash);
      return { outcome: 'revoked' };
    }
    const key: PublishableKey = {
      factoryId: found.factoryId,
      keyId: found.keyId,
      origins: [...found.origins],
      rateLimit: found.rateLimit,
      ...(found.servers === true ? { servers: true } : {}),
      ...(found.sentryProjectId === undefined ? {} : { sentryProjectId: found.sentryProjectId }),
    };
    this.seen.set(keyHash, key);
    return { outcome: 'active', key };
  }

  async admitRequest(_key: PublishableKey, keyHash: string, nowMs: number): Promise<Admission | { admitted: false; revoked: true }> {
    const found = this.keys.get(keyHash);
    if (!found || found.status === 'revoked') return { admitted: false, revoked: true };
    const decision = decideRate({ tatUs: found.tatUs }, toMicroseconds(nowMs), perMinutePolicy(found.rateLimit));
    if (!decision.admitted) return { admitted: false, retryAfterSeconds: decision.retryAfterSeconds };
    found.tatUs = decision.tatUs;
    return { admitted: true };
  }

  async markExposed(keyHash: string, nowMs: number): Promise<ExposureMark> {
    const found = this.keys.get(keyHash);
    if (found?.type !== 'secret') return { marked: false };
    const at = new Date(nowMs).toISOString();
    found.exposed = { firstSeenAt: found.exposed?.firstSeenAt ?? at, lastSeenAt: at, count: (found.exposed?.count ?? 0) + 1 };
    return { marked: true, keyId: found.keyId, factoryId: found.factoryId, count: found.exposed.count };
  }

  knownKey(keyHash: string): PublishableKey | undefined {
    return this.seen.get(keyHash);
  }
}
