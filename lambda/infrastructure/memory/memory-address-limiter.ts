import { decideRate, toMicroseconds } from '../../kernel/rate-limit';
import type { AddressLimits } from '../../ingest/limits';
import type { AddressDecision, AddressLimiter, AddressLimitName } from '../../ingest/ports';

/** AddressLimiter in memory: the same pure rule (decideRate) per limit, all or nothing. */
export class MemoryAddressLimiter implements AddressLimiter {
  private readonly tats = new Map<string, Partial<Record<AddressLimitName, number>>>();

  constructor(private readonly limits: AddressLimits) {}

  async admit(subject: { keyId: string; addressHash: string }, names: readonly AddressLimitName[], nowMs: number): Promise<AddressDecision> {
    const id = `${subject.keyId}#${subject.addressHash}`;
    const state = this.tats.get(id) ?? {};
    const nowUs = toMicroseconds(nowMs);
    const decisions = names.map((name) => ({ name, decision: decideRate({ tatUs: state[name] }, nowUs, this.limits[name]) }));
    const refused = decisions
      .flatMap(({ name, decision }) => (decision.admitted ? [] : [{ name, retryAfterSeconds: decision.retryAfterSeconds }]))
      .sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
    if (refused) return { admitted: false, limit: refused.name, retryAfterSeconds: refused.retryAfterSeconds };
    for (const { name, decision } of decisions) if (decision.admitted) state[name] = decision.tatUs;
    this.tats.set(id, state);
    return { admitted: true };
  }
}
