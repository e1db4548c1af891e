import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { KeyType } from '../domain/api-key';
import { StorageUnavailableError } from '../domain/errors';
import { decideRate, intervalUs, perMinutePolicy, toleranceUs, type RateDecision } from '../domain/rate-limit';
import { isConditionalCheckFailed, storageCall } from './errors';
import type { KeyItem } from './key-item';

/** What a container last saw of a key's limiter: it picks the update shape of the next request. */
export interface LimiterGuess {
  rateLimit: number;
  tatUs?: number;
}

/** The outcome of one key call: the key's item when it exists and is of the type asked for. */
export type KeyCall =
  | { outcome: 'allowed'; item: KeyItem }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  | { outcome: 'throttled'; item: KeyItem; decision: Extract<RateDecision, { admitted: false }> };

const NAMES = {
  '#status': 'status',
  '#keyType': 'keyType',
  '#tat': 'rlTat',
  '#gate': 'rlGate',
  '#lastUsedAt': 'lastUsedAt',
  '#lastRequest': 'rlLastRequest',
};
const USABLE = '#status = :active AND #keyType = :keyType';
/** Not this very request again: an SDK retry of a write that landed but whose answer was lost. */
export const NOT_REPEATED = '(attribute_not_exists(#lastRequest) OR #lastRequest <> :request)';

/** The GCRA update of one limit held in two attributes of an item (see gcraShape). */
export interface GcraShape {
  update: string;
  condition: string;
}

/**
 * How a TAT moves (lambda/domain/rate-limit.ts), as two conditional
 * updates: DynamoDB conditions compare but cannot add, so the item keeps the
 * gate (TAT − B·T) beside the TAT, and each shape's condition is exactly the
 * rule's "admit" for the state it expects.
 *   idle  TAT ≤ now          admit;  TAT := now + T,    gate := now + T − B·T
 *   busy  TAT > now ≥ gate   admit;  TAT := TAT + T,    gate := gate + T
 *   (TAT > now and gate > now: refused, nothing written)
 * `tat`, `gate`, `step` and `idleStep` are expression names or values
 * (`#tat`, `:step`…); `known` adds the conditions that the stored steps
 * exist when they are read from the item.
 */
export function gcraShape(
  from: 'idle' | 'busy',
  operands: { tat: string; gate: string; step: string; idleStep: string; now: string },
  stepsFromItem = false,
): GcraShape {
  const { tat, gate, step, idleStep, now } = operands;
  if (from === 'idle') {
    const known = stepsFromItem ? ` AND attribute_exists(${step}) AND attribute_exists(${idleStep})` : '';
    return {
      update: `${tat} = ${now} + ${step}, ${gate} = ${now} + ${idleStep}`,
      condition: `(attribute_not_exists(${tat}) OR ${tat} <= ${now})${known}`,
    };
  }
  return {
    update: `${tat} = ${tat} + ${step}, ${gate} = ${gate} + ${step}`,
    condition: `${tat} > ${now} AND ${gate} <= ${now}${stepsFromItem ? ` AND attribute_exists(${step})` : ''}`,
  };
}

/**
 * The key's own limit as a shape. The steps come from the item (fixed at
 * issue) or, when this container knows the key's limit, from the request: a
 * first call needs no knowledge of the key.
 */
function keyShape(from: 'idle' | 'busy', steps: { step: number; idleStep: number } | undefined) {
  const names: Record<string, string> = { ...NAMES };
  const values: Record<string, number> = {};
  // The busy shape never reads the idle step: give it only when used (DynamoDB refuses unused names and values).
  if (steps) {
    values[':step'] = steps.step;
    if (from === 'idle') values[':idleStep'] = steps.idleStep;
  } else {
    names['#step'] = 'rlStep';
    if (from === 'idle') names['#idleStep'] = 'rlIdleStep';
  }
  const shape = gcraShape(
    from,
    { tat: '#tat', gate: '#gate', step: steps ? ':step' : '#step', idleStep: steps ? ':idleStep' : '#idleStep', now: ':now' },
    !steps,
  );
  return { names, values, ...shape };
}

function keyCommand(
  tableName: string,
  keyType: KeyType,
  keyHash: string,
  from: 'idle' | 'busy',
  known: LimiterGuess | undefined,
  nowUs: number,
  request: string,
): UpdateCommand {
  const policy = known && perMinutePolicy(known.rateLimit);
  const steps = policy && { step: intervalUs(policy), idleStep: intervalUs(policy) - toleranceUs(policy) };
  const { names, values: stepValues, update, condition } = keyShape(from, steps);
  const values: Record<string, unknown> = {
    ...stepValues,
    ':active': 'active',
    ':keyType': keyType,
    ':now': nowUs,
    ':iso': new Date(nowUs / 1000).toISOString(),
    ':request': request,
  };
  return new UpdateCommand({
    TableName: tableName,
    Key: { keyHash },
    UpdateExpression: `SET ${update}, #lastUsedAt = :iso, #lastRequest = :request`,
    ConditionExpression: `${USABLE} AND ${NOT_REPEATED} AND ${condition}`,
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValues: 'ALL_NEW',
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  });
}

/** The item a failed condition returned (raw, even through the document client), if any. */
export function itemOfFailure<T>(error: { Item?: Record<string, unknown> }): T | undefined {
  return error.Item ? (unmarshall(error.Item as Record<string, AttributeValue>) as T) : undefined;
}

/**
 * One request of a key: authentication (the key exists, is active and of
 * `keyType`) and its per-minute limit in one conditional UpdateItem on the
 * key's item, so a revoked key fails on its very next request and the limit
 * holds across any number of concurrent Lambdas. Used by both APIs: secret
 * keys on the contacts API, publishable keys on the ingest API.
 *
 * The request guesses the shape from what the container last saw of the key
 * ("idle" for a key it has not seen). A wrong guess, a throttled key, or a
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
  // Three tries cover a guess gone stale twice under a race at the idle/busy edge.
  for (let tries = 0; tries < 3; tries += 1) {
    const guess: 'idle' | 'busy' = guessFrom?.tatUs !== undefined && guessFrom.tatUs > nowUs ? 'busy' : 'idle';
    try {
      const result = await storageCall('UpdateItem (authorize key)', () =>
        doc.send(keyCommand(tableName, keyType, keyHash, guess, guessFrom, nowUs, request)),
      );
      return { outcome: 'allowed', item: result.Attributes as KeyItem };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const old = itemOfFailure<KeyItem>(error);
      if (!old || old.keyType !== keyType || old.status !== 'active') {
        return { outcome: old?.keyType === keyType ? 'revoked' : 'unknown' };
      }
      // Our own earlier attempt landed (its answer was lost): the request is counted, once.
      if (old.rlLastRequest === request) return { outcome: 'allowed', item: old };
      guessFrom = { rateLimit: old.rateLimit, tatUs: old.rlTat };
      const decision = decideRate({ tatUs: old.rlTat }, nowUs, perMinutePolicy(old.rateLimit));
      if (!decision.admitted) return { outcome: 'throttled', item: old, decision };
      // The guess was wrong (or the state moved under us): try again, from what is stored now.
    }
  }
  throw new StorageUnavailableError('UpdateItem (authorize key)', new Error('the key item kept changing under three attempts'));
}
