import { decideRate, toMicroseconds } from '../../kernel/rate-limit';
import { issueRequestPolicy } from '../../ingest/limits';
import type { Admission, IssueLimiter, PublishableKey } from '../../ingest/ports';

/** IssueLimiter in memory: the same pure rule (decideRate) per key and issue, one request at a time. */
export class MemoryIssueLimiter implements IssueLimiter {
  private readonly tats = new Map<string, number>();

  async admit(key: PublishableKey, issueIds: readonly string[], nowMs: number): Promise<Map<string, Admission>> {
    const nowUs = toMicroseconds(nowMs);
    const answers = new Map<string, Admission>();
    for (const issueId of issueIds) {
      const id = `${key.keyId}#${issueId}`;
      const decision = decideRate({ tatUs: this.tats.get(id) }, nowUs, issueRequestPolicy(key.rateLimit));
      if (decision.admitted) this.tats.set(id, decision.tatUs);
      answers.set(issueId, decision.admitted ? { admitted: true } : { admitted: false, retryAfterSeconds: decision.retryAfterSeconds });
    }
    return answers;
  }
}
