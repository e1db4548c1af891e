import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { KeyType } from '../../../kernel/api-key';
import { StorageUnavailableError } from '../../../kernel/errors';
import type { RateStatus } from '../../../contacts/domain/ports';
import { decideRate, intervalUs, perMinutePolicy, standing, toleranceUs, type RatePolicy } from '../../../kernel/rate-limit';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression, type AttributePath, type Condition, type Operand } from '../expression';
import type { KeyItem } from './key-item';
import { notRepeated } from '../request-token';

/** What a container last saw of a key's limiter: it picks the update shape of the next request. */
export interface LimiterGuess {
  rateLimit: number;
  tatUs?: number;
}

/**
 * The outcome of one key call: the key's item when it exists and is of the
 * type asked for, and where the key stands against its limit (the
 * rate-limit headers), worked out here once for both APIs.
 */
export type KeyCall =
  | { outcome: 'allowed'; item: KeyItem; rate: RateStatus }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  | { outcome: 'throttled'; item: KeyItem; retryAfterSeconds: number; rate: RateStatus };

function allowed(item: KeyItem, nowUs: number): KeyCall {
  return { outcome: 'allowed', item, rate: { limit: item.rateLimit, ...standing(item.rlTat, nowUs, perMinutePolicy(item.rateLimit)) } };
}

/**
 * How a TAT moves (lambda/kernel/rate-limit.ts), as a conditional update
 * whose condition is exactly the rule's "admit" for the state it expects.
 * DynamoDB conditions compare but cannot add, so now + τ is computed here
 * and sent as a value:
 *   idle  TAT ≤ now (or none)   TAT := now + T
 *   busy  now < TAT ≤ now + τ   TAT := TAT + T
 *   (TAT > now + τ: refused, nothing written)
 * Adds the SET of `tat` and its condition to `expression`; `now` is the
 * operand holding now (µs), shared with the rest of the write.
 */
export function gcraUpdate(
  expression: Expression,
  from: 'idle' | 'busy',
  policy: RatePolicy,
  operands: { tat: AttributePath; now: Operand; nowUs: number },
  /** Admissions a container made without writing, as an interval (lambda/kernel/rate-view.ts): added, and within the tolerance. */
  unchargedUs = 0,
): void {
  const { tat, now, nowUs } = operands;
  if (from === 'idle') {
    expression.setSum(tat, now, intervalUs(policy) + unchargedUs).when(isIdle(expression, tat, now));
    return;
  }
  expression
    .setSum(tat, expression.attribute(tat), intervalUs(policy) + unchargedUs)
    .when(expression.is(tat, '>', now), expression.is(tat, '<=', nowUs + toleranceUs(policy) - unchargedUs));
}

/** TAT ≤ now, or no TAT yet: the limit is idle. */
function isIdle(expression: Expression, tat: AttributePath, now: Operand): Condition {
  return expression.or(expression.notExists(tat), expression.is(tat, '<=', now));
}

type Shape = 'first' | 'idle' | 'busy';

/**
 * The key's own limit as a conditional update. A container's first request
 * of a key ("first") knows nothing of it: T comes from the item's `rlStep`,
 * written when the key was issued. Once the container has seen the key it
 * knows its limit, and "idle" also writes `rlStep` (healing a key issued
 * before it existed).
 *   first  TAT ≤ now (or none)   TAT := now + rlStep
 *   idle   TAT ≤ now (or none)   TAT := now + T, rlStep := T
 *   busy   now < TAT ≤ now + τ   TAT := TAT + T
 */
function keyCommand(
  tableName: string,
  keyType: KeyType,
  keyHash: string,
  shape: Shape,
  known: LimiterGuess | undefined,
  nowUs: number,
  request: string,
): UpdateCommand {
  const expression = new Expression();
  const now = expression.value(nowUs);
  const token = expression.value(request);
  expression
    .set('lastUsedAt', new Date(nowUs / 1000).toISOString())
    .set('rlLastRequest', token)
    .when(expression.is('status', '=', 'active'), expression.is('keyType', '=', keyType), notRepeated(expression, 'rlLastRequest', token));
  if (shape === 'first' || !known) {
    expression.setSum('rlTat', now, expression.attribute('rlStep')).when(isIdle(expression, 'rlTat', now), expression.exists('rlStep'));
  } else {
    const policy = perMinutePolicy(known.rateLimit);
    gcraUpdate(expression, shape, policy, { tat: 'rlTat', now, nowUs });
    if (shape === 'idle') expression.set('rlStep', intervalUs(policy));
  }
  return new UpdateCommand({
    TableName: tableName,
    Key: { keyHash },
    ...expression.forUpdate(),
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
}

/**
 * One request of a key: authentication (the key exists, is active and of
 * `keyType`) and its per-minute limit in one conditional UpdateItem on the
 * key's item, so a revoked key fails on its very next request and the limit
 * holds across any number of concurrent Lambdas. Used by both APIs: secret
 * keys on the contacts API, publishable keys on the ingest API.
 *
 * The request guesses the shape from what the container last saw of the key
 * ("first" for a key it has not seen). A wrong guess, a throttled key, or a
 * revoked, unknown or other-type one fails the condition, and the item
 * returned with the failure says which: the second call (on a wrong guess
 * only) is exact.
 *
 * Each request writes its own token. When the SDK retries a write that landed
 * but whose answer was lost, the retry fails its condition and the returned
 * item carries our token: the request is allowed, counted once. (Should
 * another request on the same key land in between, the token is no longer
 * ours and the retry counts again: the limit then errs strict.)
 */
export async function countKeyRequest(
  doc: DynamoDBDocumentClient,
  tableName: string,
  keyType: KeyType,
  keyHash: string,
  nowUs: number,
  known: LimiterGuess | undefined,
): Promise<KeyCall> {
  const request = randomUUID();
  let guessFrom = known;
  // Three tries cover the worst sequence: "first" on a key issued without
  // rlStep, "idle" finding the key busy by then, and "busy" failing, which
  // only happens once it is over the limit (the TAT never moves back).
  for (let tries = 0; tries < 3; tries += 1) {
    const shape: Shape = !guessFrom ? 'first' : guessFrom.tatUs !== undefined && guessFrom.tatUs > nowUs ? 'busy' : 'idle';
    try {
      const result = await storageCall('UpdateItem (authorize key)', () => doc.send(keyCommand(tableName, keyType, keyHash, shape, guessFrom, nowUs, request)));
      return allowed(result.Attributes as KeyItem, nowUs);
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const old = itemOfFailure<KeyItem>(error);
      if (!old || old.keyType !== keyType || old.status !== 'active') {
        return { outcome: old?.keyType === keyType ? 'revoked' : 'unknown' };
      }
      // Our own earlier attempt landed (its answer was lost): the request is counted, once.
      if (old.rlLastRequest === request) return allowed(old, nowUs);
      guessFrom = { rateLimit: old.rateLimit, tatUs: old.rlTat };
      const decision = decideRate({ tatUs: old.rlTat }, nowUs, perMinutePolicy(old.rateLimit));
      if (!decision.admitted) {
        const { retryAfterSeconds, remaining, windowSeconds } = decision;
        return { outcome: 'throttled', item: old, retryAfterSeconds, rate: { limit: old.rateLimit, remaining, windowSeconds } };
      }
      // The guess was wrong (or the state moved under us): try again, from what is stored now.
    }
  }
  throw new StorageUnavailableError('UpdateItem (authorize key)', new Error('the key item kept changing under three attempts'));
}
