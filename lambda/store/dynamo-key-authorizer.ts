import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { StorageUnavailableError } from '../domain/errors';
import type { AuthDecision, CallLog, KeyAuthorizer, RateStatus } from '../domain/ports';
import { decideRate, intervalUs, perMinutePolicy, standing, toMicroseconds, toleranceUs, type RateDecision } from '../domain/rate-limit';
import { isConditionalCheckFailed, storageCall } from './errors';
import type { KeyItem } from './key-item';

/** What this container last saw of a key: its identity (never changes) and its limiter state. */
interface Seen {
  factoryId: string;
  keyId: string;
  rateLimit: number;
  tatUs?: number;
}

/** An active secret key, and not this very request again (an SDK retry of a write that landed but whose answer was lost). */
const USABLE = '#status = :active AND #keyType = :secret AND (attribute_not_exists(#lastRequest) OR #lastRequest <> :request)';

type Shape = 'first' | 'idle' | 'busy';

/**
 * How the TAT moves (lambda/domain/rate-limit.ts), as conditional updates
 * whose conditions are exactly the rule's "admit" for the state each
 * expects. DynamoDB conditions compare but cannot add, so now + τ is
 * computed here and sent as a value; the busy shape is only sent by a
 * container that knows the key's limit (it saw the item).
 *   first  TAT ≤ now (or none)   TAT := now + rlStep   a container's first request of the key:
 *                                                      T as stored with the key at issue
 *   idle   TAT ≤ now (or none)   TAT := now + T        (and rlStep := T: heals a key issued without it)
 *   busy   now < TAT ≤ now + τ   TAT := TAT + T
 *   (TAT > now + τ: refused, nothing written)
 */
const SHAPES: Record<Shape, { update: string; condition: string; names: Record<string, string> }> = {
  first: {
    update: 'SET #tat = :now + #step',
    condition: '(attribute_not_exists(#tat) OR #tat <= :now) AND attribute_exists(#step)',
    names: { '#step': 'rlStep' },
  },
  idle: {
    update: 'SET #tat = :now + :step, #step = :step',
    condition: '(attribute_not_exists(#tat) OR #tat <= :now)',
    names: { '#step': 'rlStep' },
  },
  busy: { update: 'SET #tat = #tat + :step', condition: '#tat > :now AND #tat <= :deadline', names: {} },
};

const NAMES = {
  '#status': 'status',
  '#keyType': 'keyType',
  '#tat': 'rlTat',
  '#lastUsedAt': 'lastUsedAt',
  '#lastRequest': 'rlLastRequest',
};

/**
 * Authentication and rate limiting in one conditional UpdateItem on the key's
 * item, so a revoked key fails on its very next request and the limit holds
 * across any number of concurrent Lambdas. The limit itself is the pure rule
 * of lambda/domain/rate-limit.ts (GCRA); this adapter only writes its state
 * with a condition that the state is still what the rule decided from.
 *
 * Each request guesses the shape from what this container last saw of the
 * key ("first" for a key it has not seen). A wrong guess, a throttled key,
 * or a revoked or unknown one fails the condition, and the item returned
 * with the failure says which: the second call (on a wrong guess only) is
 * exact.
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

  async authorize(keyHash: string, nowMs: number, log?: CallLog): Promise<AuthDecision> {
    const request = randomUUID();
    const nowUs = toMicroseconds(nowMs);
    let known = this.seen.get(keyHash);
    // Three tries cover the worst sequence: "first" on a key issued without
    // rlStep, "idle" finding the key busy by then, and "busy" failing, which
    // only happens once it is over the limit (the TAT never moves back).
    for (let tries = 0; tries < 3; tries += 1) {
      const shape: Shape = !known ? 'first' : known.tatUs !== undefined && known.tatUs > nowUs ? 'busy' : 'idle';
      try {
        const result = await storageCall('UpdateItem (authorize key)', () => this.doc.send(this.command(keyHash, shape, known, nowUs, request)), log);
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

  private command(keyHash: string, shape: Shape, known: Seen | undefined, nowUs: number, request: string): UpdateCommand {
    const { update, condition, names } = SHAPES[shape];
    const values: Record<string, unknown> = {
      ':active': 'active',
      ':secret': 'secret',
      ':now': nowUs,
      ':iso': new Date(nowUs / 1000).toISOString(),
      ':request': request,
    };
    if (known && shape !== 'first') {
      const policy = perMinutePolicy(known.rateLimit);
      values[':step'] = intervalUs(policy);
      if (shape === 'busy') values[':deadline'] = nowUs + toleranceUs(policy);
    }
    return new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      UpdateExpression: `${update}, #lastUsedAt = :iso, #lastRequest = :request`,
      ConditionExpression: `${USABLE} AND ${condition}`,
      ExpressionAttributeNames: { ...NAMES, ...names },
      ExpressionAttributeValues: values,
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  private allowed(keyHash: string, item: KeyItem, nowUs: number): AuthDecision {
    this.remember(keyHash, item);
    const rate: RateStatus = { limit: item.rateLimit, ...standing(item.rlTat, nowUs, perMinutePolicy(item.rateLimit)) };
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
    rate: { limit, remaining: decision.remaining, windowSeconds: decision.windowSeconds },
  };
}
