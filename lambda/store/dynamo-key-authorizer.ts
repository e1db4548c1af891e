import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { StorageUnavailableError } from '../domain/errors';
import type { AuthDecision, KeyAuthorizer, RateStatus } from '../domain/ports';
import { decideRate, intervalUs, perMinutePolicy, remainingAfter, toMicroseconds, toleranceUs, type RateDecision } from '../domain/rate-limit';
import { isConditionalCheckFailed, storageCall } from './errors';
import type { KeyItem } from './key-item';

/** What this container last saw of a key: its identity (never changes) and its limiter state. */
interface Seen {
  factoryId: string;
  keyId: string;
  rateLimit: number;
  tatUs?: number;
}

const NAMES = {
  '#status': 'status',
  '#keyType': 'keyType',
  '#tat': 'rlTat',
  '#gate': 'rlGate',
  '#lastUsedAt': 'lastUsedAt',
  '#lastRequest': 'rlLastRequest',
};
const USABLE = '#status = :active AND #keyType = :secret';
/** Not this very request again: an SDK retry of a write that landed but whose answer was lost. */
const NOT_REPEATED = '(attribute_not_exists(#lastRequest) OR #lastRequest <> :request)';

/**
 * How the TAT moves (lambda/domain/rate-limit.ts), as two conditional
 * updates: DynamoDB conditions compare but cannot add, so the item keeps the
 * gate (TAT − B·T) beside the TAT, and each shape's condition is exactly the
 * rule's "admit" for the state it expects.
 *   idle  TAT ≤ now          admit;  TAT := now + T,    gate := now + T − B·T
 *   busy  TAT > now ≥ gate   admit;  TAT := TAT + T,    gate := gate + T
 *   (TAT > now and gate > now: refused, nothing written)
 * The steps come from the item (fixed at issue) or, when this container knows
 * the key's limit, from the request: a first call needs no knowledge of the key.
 */
function shape(from: 'idle' | 'busy', steps: { step: number; idleStep: number } | undefined) {
  const names: Record<string, string> = { ...NAMES };
  const values: Record<string, number> = {};
  // A step from the request when this container knows the key's limit, else the one stored with the key.
  const operand = (name: 'step' | 'idleStep', attribute: string): string => {
    if (steps) {
      values[`:${name}`] = steps[name];
      return `:${name}`;
    }
    names[`#${name}`] = attribute;
    return `#${name}`;
  };
  if (from === 'idle') {
    const step = operand('step', 'rlStep');
    const idleStep = operand('idleStep', 'rlIdleStep');
    const known = steps ? '' : ' AND attribute_exists(#step) AND attribute_exists(#idleStep)';
    return {
      names,
      values,
      update: `SET #tat = :now + ${step}, #gate = :now + ${idleStep}`,
      condition: `(attribute_not_exists(#tat) OR #tat <= :now)${known}`,
    };
  }
  const step = operand('step', 'rlStep');
  return {
    names,
    values,
    update: `SET #tat = #tat + ${step}, #gate = #gate + ${step}`,
    condition: `#tat > :now AND #gate <= :now${steps ? '' : ' AND attribute_exists(#step)'}`,
  };
}

/**
 * Authentication and rate limiting in one conditional UpdateItem on the key's
 * item, so a revoked key fails on its very next request and the limit holds
 * across any number of concurrent Lambdas. The limit itself is the pure rule
 * of lambda/domain/rate-limit.ts (GCRA); this adapter only writes its state
 * with a condition that the state is still what the rule decided from.
 *
 * Each request guesses the shape from what this container last saw of the
 * key ("idle" for a key it has not seen). A wrong guess, a throttled key, or
 * a revoked or unknown one fails the condition, and the item returned with
 * the failure says which: the second call (on a wrong guess only) is exact.
 *
 * Each request writes its own token. When the SDK retries a write that landed
 * but whose answer was lost, the retry fails its condition and the returned
 * item carries our token: the request is allowed, counted once. (Should
 * another request on the same key land in between, the token is no longer
 * ours and the retry counts again: the limit then errs strict.)
 */
export class DynamoKeyAuthorizer implements KeyAuthorizer {
  /** Per key hash allowed in this container. */
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async authorize(keyHash: string, nowMs: number): Promise<AuthDecision> {
    const request = randomUUID();
    const nowUs = toMicroseconds(nowMs);
    let known = this.seen.get(keyHash);
    // Three tries cover a guess gone stale twice under a race at the idle/busy edge.
    for (let tries = 0; tries < 3; tries += 1) {
      const guess: 'idle' | 'busy' = known?.tatUs !== undefined && known.tatUs > nowUs ? 'busy' : 'idle';
      try {
        const result = await storageCall('UpdateItem (authorize key)', () =>
          this.doc.send(this.command(keyHash, guess, known, nowUs, request)),
        );
        return this.allowed(keyHash, result.Attributes as KeyItem, nowUs);
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const old = error.Item ? (unmarshall(error.Item as Record<string, AttributeValue>) as KeyItem) : undefined;
        if (!old || old.keyType !== 'secret' || old.status !== 'active') {
          this.seen.delete(keyHash);
          return { outcome: old?.keyType === 'secret' ? 'revoked' : 'unknown' };
        }
        // Our own earlier attempt landed (its answer was lost): the request is counted, once.
        if (old.rlLastRequest === request) return this.allowed(keyHash, old, nowUs);
        known = this.remember(keyHash, old);
        const decision = decideRate({ tatUs: old.rlTat }, nowUs, perMinutePolicy(old.rateLimit));
        if (!decision.admitted) return throttled(decision, old.rateLimit);
        // The guess was wrong (or the state moved under us): try again, from what is stored now.
      }
    }
    throw new StorageUnavailableError('UpdateItem (authorize key)', new Error('the key item kept changing under three attempts'));
  }

  private command(keyHash: string, from: 'idle' | 'busy', known: Seen | undefined, nowUs: number, request: string): UpdateCommand {
    const policy = known && perMinutePolicy(known.rateLimit);
    const steps = policy && { step: intervalUs(policy), idleStep: intervalUs(policy) - toleranceUs(policy) };
    const { names, values: stepValues, update, condition } = shape(from, steps);
    const values: Record<string, unknown> = {
      ...stepValues,
      ':active': 'active',
      ':secret': 'secret',
      ':now': nowUs,
      ':iso': new Date(nowUs / 1000).toISOString(),
      ':request': request,
    };
    return new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      UpdateExpression: `${update}, #lastUsedAt = :iso, #lastRequest = :request`,
      ConditionExpression: `${USABLE} AND ${NOT_REPEATED} AND ${condition}`,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  private allowed(keyHash: string, item: KeyItem, nowUs: number): AuthDecision {
    this.remember(keyHash, item);
    const policy = perMinutePolicy(item.rateLimit);
    const tatUs = item.rlTat ?? nowUs;
    const rate: RateStatus = {
      limit: item.rateLimit,
      remaining: remainingAfter(tatUs, nowUs, policy),
      resetSeconds: Math.max(0, Math.ceil((tatUs - nowUs) / 1e6)),
    };
    return { outcome: 'allowed', factoryId: item.factoryId, keyId: item.keyId, rate };
  }

  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined {
    const known = this.seen.get(keyHash);
    return known && { factoryId: known.factoryId, keyId: known.keyId };
  }

  private remember(keyHash: string, item: KeyItem): Seen {
    // Bounded: only active secret keys land here, and a container serves few.
    if (this.seen.size > 10_000) this.seen.clear();
    const seen: Seen = { factoryId: item.factoryId, keyId: item.keyId, rateLimit: item.rateLimit, tatUs: item.rlTat };
    this.seen.set(keyHash, seen);
    return seen;
  }
}

function throttled(decision: Extract<RateDecision, { admitted: false }>, limit: number): AuthDecision {
  return {
    outcome: 'throttled',
    retryAfterSeconds: decision.retryAfterSeconds,
    rate: { limit, remaining: 0, resetSeconds: decision.resetSeconds },
  };
}
