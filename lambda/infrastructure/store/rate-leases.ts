import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from '../../kernel/errors';
import { decideLease, leaseSize } from '../../kernel/rate-lease';
import { intervalUs, toleranceUs, toMicroseconds, type RatePolicy } from '../../kernel/rate-limit';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from './errors';
import { Expression, type Condition } from './expression';
import { notRepeated } from './request-token';

type Item = Record<string, unknown>;

/** One limiter item and how to read and advance it. */
export interface LeaseTarget {
  /** The call's name in logs and errors. */
  operation: string;
  tableName: string;
  key: Record<string, string>;
  /** The attribute holding the TAT (µs), and the one holding the last write's token. */
  tatAttribute: string;
  tokenAttribute: string;
  /** The limit, when the caller knows it; otherwise read from the item (`policyOf`) after a first write of one request. */
  policy?: RatePolicy;
  policyOf?: (item: Item) => RatePolicy | undefined;
  /**
   * A first write that needs no policy (a key's `rlStep`, written at issue):
   * its SET and conditions, for one request when the container knows nothing of the item yet.
   */
  firstWrite?: (expression: Expression, now: ReturnType<Expression['value']>) => void;
  /** What the item must be besides under its limit (a key: active, of its type); checked in the same write. */
  guard?: (expression: Expression) => Condition[];
  /** Whether an item returned with a refused write meets the guard. */
  guardHolds?: (item: Item | undefined) => boolean;
  /** Attributes every write also sets (a time to live, the last use). */
  alsoSet?: (expression: Expression, nowMs: number) => void;
}

export type LeaseTake =
  | { outcome: 'admitted'; item: Item }
  | { outcome: 'limited'; retryAfterSeconds: number; item: Item; policy: RatePolicy }
  /** The guard failed (or the item is missing): the item as it is, for the caller to say why. */
  | { outcome: 'refused'; item: Item | undefined };

interface Lease {
  /** Requests left in the lease, and until when they may be handed out. */
  left: number;
  lapsesAtMs: number;
  /** Requests handed out from this lease and the one before: the next lease's size. */
  used: number;
  usedBefore: number;
  /** What the container last saw of the item: the guess for the next write, and the snapshot the guard was checked on. */
  tatUs?: number;
  policy?: RatePolicy;
  item?: Item;
  /** When the item was last written or read: the snapshot is fresh for one lease's life. */
  seenAtMs: number;
  /** Refused by the limit until then: no write before. */
  limitedUntilMs: number;
  /** A lease being taken: others wait for it rather than write too. */
  taking?: Promise<LeaseTake | undefined>;
}

/** Leases remembered per container; a container serves few keys and issues at once. */
const MAX_LEASES = 10_000;

/**
 * Rate limits whose items are written once per lease, not once per request
 * (docs/capacity.md#limiters-that-write-once-a-lease): a container takes n
 * requests of a limit in one conditional UpdateItem (GCRA for n at once,
 * lambda/kernel/rate-lease.ts) and hands them out for at most `leaseMs`; what
 * is left then lapses (the limit errs strict). The write's condition is the
 * rule's admission for the state the container expects; a wrong guess fails
 * it and the item returned with the failure makes the next try exact, as
 * for the per-request limiters (key-limiter.ts). A request token makes an SDK
 * retry of a write that landed count once.
 *
 * The item is written at most once per lease per container, so its write
 * rate is bounded by the number of containers (Lambda's concurrency) over
 * the lease's life, whatever the request rate.
 */
export class RateLeases {
  private readonly leases = new Map<string, Lease>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly leaseMs: number,
  ) {}

  /** The item as this container last saw it, if it saw it within one lease's life (no I/O). */
  fresh(id: string, nowMs: number): Item | undefined {
    const lease = this.leases.get(id);
    return lease?.item && nowMs - lease.seenAtMs < this.leaseMs ? lease.item : undefined;
  }

  /** The item as this container last saw it, however long ago. */
  lastSeen(id: string): Item | undefined {
    return this.leases.get(id)?.item;
  }

  /** Forgets an item (a key found revoked or unknown). */
  forget(id: string): void {
    this.leases.delete(id);
  }

  /**
   * One request of the limit: from this container's lease when it has one
   * left, otherwise with one conditional write taking a new lease.
   */
  async take(id: string, target: LeaseTarget, nowMs: number): Promise<LeaseTake> {
    const lease = this.leaseOf(id);
    for (;;) {
      if (lease.left > 0 && nowMs <= lease.lapsesAtMs && lease.item) {
        lease.left -= 1;
        lease.used += 1;
        return { outcome: 'admitted', item: lease.item };
      }
      if (nowMs < lease.limitedUntilMs && lease.item && lease.policy) {
        return { outcome: 'limited', retryAfterSeconds: Math.max(1, Math.ceil((lease.limitedUntilMs - nowMs) / 1000)), item: lease.item, policy: lease.policy };
      }
      if (lease.taking) {
        const other = await lease.taking;
        // Another request's lease: take from it, or answer as it was answered.
        if (other?.outcome === 'refused') return other;
        continue;
      }
      lease.taking = this.takeLease(lease, target, nowMs);
      let taken: LeaseTake | undefined;
      try {
        taken = await lease.taking;
      } finally {
        lease.taking = undefined;
      }
      if (taken) return taken;
    }
  }

  private leaseOf(id: string): Lease {
    let lease = this.leases.get(id);
    if (!lease) {
      if (this.leases.size >= MAX_LEASES) this.leases.clear();
      lease = { left: 0, lapsesAtMs: 0, used: 0, usedBefore: 0, seenAtMs: 0, limitedUntilMs: 0 };
      this.leases.set(id, lease);
    }
    return lease;
  }

  /**
   * Takes a new lease. Answers the request's outcome when it is settled here
   * (refused, limited, or admitted from the new lease); undefined when the
   * caller should look at the lease again (granted: take from it).
   */
  private async takeLease(lease: Lease, target: LeaseTarget, nowMs: number): Promise<LeaseTake | undefined> {
    const nowUs = toMicroseconds(nowMs);
    const token = randomUUID();
    const policy = target.policy ?? lease.policy;
    const wanted = policy ? leaseSize(Math.max(lease.used, lease.usedBefore), policy, this.leaseMs) : 1;
    let guess: { tatUs?: number; policy?: RatePolicy } = { tatUs: lease.tatUs, policy };
    // Three tries cover the worst case: a first write finding the item busy, an exact one finding it moved, and a last exact one.
    for (let tries = 0; tries < 3; tries += 1) {
      const plan = this.plan(guess, nowUs, wanted);
      try {
        const result = await storageCall(target.operation, () => this.doc.send(this.command(target, plan, nowUs, nowMs, token)));
        return this.granted(lease, target, result.Attributes ?? {}, plan.count, nowMs);
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const old = itemOfFailure<Item>(error);
        if (target.guardHolds && !target.guardHolds(old)) {
          lease.item = old;
          lease.seenAtMs = nowMs;
          return { outcome: 'refused', item: old };
        }
        const item = old ?? {};
        // Our own earlier attempt landed (its answer was lost): granted, once.
        if (item[target.tokenAttribute] === token) return this.granted(lease, target, item, plan.count, nowMs);
        const known = target.policy ?? target.policyOf?.(item);
        guess = { tatUs: typeof item[target.tatAttribute] === 'number' ? (item[target.tatAttribute] as number) : undefined, policy: known };
        lease.item = item;
        lease.seenAtMs = nowMs;
        lease.tatUs = guess.tatUs;
        lease.policy = known;
        if (!known) continue;
        const decision = decideLease({ tatUs: guess.tatUs }, nowUs, known, wanted);
        if ('retryAfterSeconds' in decision) {
          // Exact: the next request fits once the TAT is within the tolerance of now.
          lease.limitedUntilMs = ((guess.tatUs as number) - toleranceUs(known)) / 1000;
          lease.left = 0;
          return { outcome: 'limited', retryAfterSeconds: decision.retryAfterSeconds, item, policy: known };
        }
      }
    }
    throw new StorageUnavailableError(target.operation, new Error('the limiter item kept changing under three attempts'));
  }

  /** The write for a guess: a first write of one request (policy unknown), or `count` requests from idle or busy. */
  private plan(guess: { tatUs?: number; policy?: RatePolicy }, nowUs: number, wanted: number) {
    if (!guess.policy) return { shape: 'first' as const, count: 1 };
    const decision = decideLease({ tatUs: guess.tatUs }, nowUs, guess.policy, wanted);
    // Refused on the guess: try one request from busy anyway; the failure returns the item, which decides.
    if ('retryAfterSeconds' in decision) return { shape: 'busy' as const, count: 1, policy: guess.policy };
    return { shape: decision.from, count: decision.granted, policy: guess.policy };
  }

  private command(
    target: LeaseTarget,
    plan: { shape: 'first' | 'idle' | 'busy'; count: number; policy?: RatePolicy },
    nowUs: number,
    nowMs: number,
    token: string,
  ): UpdateCommand {
    const expression = new Expression();
    const now = expression.value(nowUs);
    const mine = expression.value(token);
    const tat = target.tatAttribute;
    expression.set(target.tokenAttribute, mine).when(notRepeated(expression, target.tokenAttribute, mine));
    if (target.guard) expression.when(...target.guard(expression));
    target.alsoSet?.(expression, nowMs);
    const idle = expression.or(expression.notExists(tat), expression.is(tat, '<=', now));
    if (plan.shape === 'first' || !plan.policy) {
      if (!target.firstWrite) throw new Error(`${target.operation}: no policy and no first write`);
      target.firstWrite(expression, now);
    } else if (plan.shape === 'idle') {
      expression.setSum(tat, now, plan.count * intervalUs(plan.policy)).when(idle);
    } else {
      // The count-th request from now fits: TAT + (count − 1)·T − now ≤ τ.
      const highest = nowUs + toleranceUs(plan.policy) - (plan.count - 1) * intervalUs(plan.policy);
      expression
        .setSum(tat, expression.attribute(tat), plan.count * intervalUs(plan.policy))
        .when(expression.is(tat, '>', now), expression.is(tat, '<=', highest));
    }
    return new UpdateCommand({
      TableName: target.tableName,
      Key: target.key,
      ...expression.forUpdate(),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  private granted(lease: Lease, target: LeaseTarget, item: Item, count: number, nowMs: number): undefined {
    lease.usedBefore = lease.used;
    lease.used = 0;
    lease.left = count;
    lease.lapsesAtMs = nowMs + this.leaseMs;
    lease.item = item;
    lease.seenAtMs = nowMs;
    lease.limitedUntilMs = 0;
    lease.tatUs = typeof item[target.tatAttribute] === 'number' ? (item[target.tatAttribute] as number) : undefined;
    lease.policy = target.policy ?? target.policyOf?.(item) ?? lease.policy;
    return undefined;
  }
}
