/**
 * A write through the proxy, in the order the service would refuse it:
 *
 *   1. conflicts   an item held by another write in flight (holds.ts): the
 *                  request is refused at once, nothing forwarded;
 *   2. ceiling     the item is read (consistently) and the partitions the
 *                  write will charge are predicted (cost-model.ts); one over
 *                  its ceiling (buckets.ts) refuses the write, nothing forwarded;
 *   3. forward     to DynamoDB Local, unchanged (a BatchWriteItem without its
 *                  refused requests);
 *   4. charge      the actual cost, from the item before and after (an
 *                  update's after is evaluated from its expression, or read
 *                  again when that cannot be done), to every partition it touched.
 *
 * Reading the item before each write is what a test layer can afford and the
 * service does not need: it costs a DynamoDB Local round trip (the measured
 * overhead is in docs/development.md). Writes of one item are serialized
 * inside the proxy (item-locks.ts), so that read sees this write's before
 * even under concurrency.
 */
import { admission, charge, chargeApplied, reserve, throttlingReason } from './admission';
import { forward, resolveActions, type Answer, type ProxiedRequest, type Resolved, type Semantics } from './context';
import { failedConditionCharges, tablePartition } from './cost-model';
import { afterImages, readItems } from './item-reads';
import { actionsOf, batchBody } from './requests';
import { jsonAnswer, throughputExceeded, transactionCanceled, transactionConflict, type CancellationCode, type ThrottlingReason } from './service-errors';
import { isObject, type Json } from './wire';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

const errorType = (body: Buffer | string): string => {
  try {
    const parsed = JSON.parse(body.toString()) as Json;
    return typeof parsed.__type === 'string' ? (parsed.__type.split('#')[1] ?? parsed.__type) : '';
  } catch {
    return '';
  }
};

/** PutItem, UpdateItem, DeleteItem. */
async function singleWrite(semantics: Semantics, request: ProxiedRequest, action: Resolved): Promise<Answer> {
  const { stats, holds } = semantics;
  if (semantics.config().conflicts && holds.conflictsOfWrite(action.id)) {
    stats.record(tablePartition(action.schema, action.key), { conflicts: 1 });
    stats.request(request.operation, 'conflicted');
    return transactionConflict();
  }
  const release = semantics.config().conflicts ? holds.hold([action.id], 'write') : () => undefined;
  const unlock = await semantics.locks.acquire([action.id]);
  let giveBack: () => void = () => {};
  try {
    const before = await readItems(semantics, request.headers, [action]);
    if (!before) return await forward(semantics, request, request.body, request.raw);
    const { closed, expected } = admission(semantics, action, before.get(action.id), false);
    if (closed.length > 0) {
      for (const partition of closed) stats.record(partition, { throttles: 1 });
      stats.request(request.operation, 'throttled');
      return throughputExceeded(closed.map((partition) => throttlingReason(action.schema, partition)));
    }
    giveBack = reserve(semantics, expected);
    stats.request(request.operation);
    const answer = await forward(semantics, request, request.body, request.raw);
    if (answer.status === 200) {
      const after = await afterImages(semantics, request.headers, [action], before);
      giveBack();
      if (after) chargeApplied(semantics, [action], before, after, false);
    } else if (errorType(answer.body) === 'ConditionalCheckFailedException') {
      giveBack();
      charge(semantics, failedConditionCharges(action.schema, action.key, before.get(action.id), action.item));
    }
    return answer;
  } finally {
    giveBack();
    unlock();
    release();
  }
}

/** TransactWriteItems: all or nothing, its items held from now until DynamoDB Local answered plus the hold. */
async function transactWrite(semantics: Semantics, request: ProxiedRequest, actions: Resolved[]): Promise<Answer> {
  const { stats, holds } = semantics;
  const ids = actions.map((action) => action.id);
  if (semantics.config().conflicts) {
    const conflicting = holds.conflictsOfTransaction(ids);
    if (conflicting.some(Boolean)) {
      for (const [i, action] of actions.entries()) if (conflicting[i]) stats.record(tablePartition(action.schema, action.key), { conflicts: 1 });
      stats.request(request.operation, 'conflicted');
      return transactionCanceled(conflicting.map((conflict): CancellationCode => (conflict ? 'TransactionConflict' : 'None')));
    }
  }
  const release = semantics.config().conflicts ? holds.hold(ids, 'transaction') : () => undefined;
  let unlock: () => void = () => {};
  let giveBack: () => void = () => {};
  let forwarded = false;
  try {
    unlock = await semantics.locks.acquire(ids);
    const before = await readItems(
      semantics,
      request.headers,
      actions.filter((action) => action.kind !== 'check'),
    );
    if (!before) {
      forwarded = true;
      return await forward(semantics, request, request.body, request.raw);
    }
    const admissions = actions.map((action) => admission(semantics, action, before.get(action.id), true));
    if (admissions.some(({ closed }) => closed.length > 0)) {
      for (const { closed } of admissions) for (const partition of closed) stats.record(partition, { throttles: 1 });
      stats.request(request.operation, 'throttled');
      return transactionCanceled(admissions.map(({ closed }): CancellationCode => (closed.length > 0 ? 'ThrottlingError' : 'None')));
    }
    giveBack = reserve(
      semantics,
      admissions.flatMap(({ expected }) => expected),
    );
    stats.request(request.operation);
    forwarded = true;
    const answer = await forward(semantics, request, request.body, request.raw);
    if (answer.status === 200) {
      const after = await afterImages(semantics, request.headers, actions, before);
      giveBack();
      if (after) chargeApplied(semantics, actions, before, after, true);
    }
    return answer;
  } finally {
    giveBack();
    unlock();
    // Its commit window: the items stay held a little after DynamoDB Local answered, and the caller waits as long.
    if (forwarded && semantics.config().conflicts && semantics.config().holdMs > 0) await sleep(semantics.config().holdMs);
    release();
  }
}

/** BatchWriteItem: each request on its own; the refused ones come back in UnprocessedItems. */
async function batchWrite(semantics: Semantics, request: ProxiedRequest, actions: Resolved[]): Promise<Answer> {
  const { stats, holds } = semantics;
  const refused: Resolved[] = [];
  const reasons: ThrottlingReason[] = [];
  let candidates = actions;
  if (semantics.config().conflicts) {
    candidates = actions.filter((action) => {
      if (!holds.conflictsOfWrite(action.id)) return true;
      stats.record(tablePartition(action.schema, action.key), { conflicts: 1 });
      refused.push(action);
      return false;
    });
  }
  const release = semantics.config().conflicts
    ? holds.hold(
        candidates.map((action) => action.id),
        'write',
      )
    : () => undefined;
  const unlock = await semantics.locks.acquire(candidates.map((action) => action.id));
  const givesBack: (() => void)[] = [];
  try {
    const before = await readItems(semantics, request.headers, candidates);
    if (!before) return await forward(semantics, request, request.body, request.raw);
    // One by one, each taking its expected cost: the later requests of the batch see the earlier ones'.
    const admitted = candidates.filter((action) => {
      const { closed, expected } = admission(semantics, action, before.get(action.id), false);
      if (closed.length === 0) {
        givesBack.push(reserve(semantics, expected));
        return true;
      }
      for (const partition of closed) {
        stats.record(partition, { throttles: 1 });
        reasons.push(throttlingReason(action.schema, partition));
      }
      refused.push(action);
      return false;
    });
    const outcome = reasons.length > 0 ? 'throttled' : refused.length > 0 ? 'conflicted' : 'passed';
    stats.request(request.operation, outcome);
    if (admitted.length === 0) {
      // All of them over the ceiling: the service fails the whole call (API_BatchWriteItem.html).
      if (reasons.length > 0) return throughputExceeded([...new Map(reasons.map((reason) => [`${reason.reason} ${reason.resource}`, reason])).values()]);
      return jsonAnswer(200, { UnprocessedItems: batchBody(refused) });
    }
    const body = refused.length === 0 ? request.body : { ...request.body, RequestItems: batchBody(admitted) };
    const answer = await forward(semantics, request, body, refused.length === 0 ? request.raw : Buffer.from(JSON.stringify(body), 'utf8'));
    if (answer.status !== 200) return answer;
    const parsed = JSON.parse(answer.body.toString()) as Json;
    const unprocessed = isObject(parsed.UnprocessedItems) ? (parsed.UnprocessedItems as Record<string, Json[]>) : {};
    // DynamoDB Local processes every request; should it hand some back, those were not applied.
    const handedBack = new Set(
      Object.values(unprocessed)
        .flat()
        .map((element) => JSON.stringify(element)),
    );
    const applied = admitted.filter((action) => !handedBack.has(JSON.stringify(action.source)));
    const after = await afterImages(semantics, request.headers, applied, before);
    for (const giveBack of givesBack.splice(0)) giveBack();
    if (after) chargeApplied(semantics, applied, before, after, false);
    if (refused.length === 0) return answer;
    for (const [table, elements] of Object.entries(batchBody(refused))) unprocessed[table] = [...(unprocessed[table] ?? []), ...elements];
    return jsonAnswer(200, { ...parsed, UnprocessedItems: unprocessed });
  } finally {
    for (const giveBack of givesBack) giveBack();
    unlock();
    release();
  }
}

/** TransactGetItems: cancelled when an item it reads is being written. */
async function transactGet(semantics: Semantics, request: ProxiedRequest, actions: Resolved[]): Promise<Answer> {
  if (semantics.config().conflicts) {
    const conflicting = semantics.holds.conflictsOfTransaction(actions.map((action) => action.id));
    if (conflicting.some(Boolean)) {
      for (const [i, action] of actions.entries()) if (conflicting[i]) semantics.stats.record(tablePartition(action.schema, action.key), { conflicts: 1 });
      semantics.stats.request(request.operation, 'conflicted');
      return transactionCanceled(conflicting.map((conflict): CancellationCode => (conflict ? 'TransactionConflict' : 'None')));
    }
  }
  semantics.stats.request(request.operation);
  return forward(semantics, request, request.body, request.raw);
}

/** A request the proxy adds semantics to; undefined when it is not one (or not one the proxy can read). */
export async function handleItemRequest(semantics: Semantics, request: ProxiedRequest): Promise<Answer | undefined> {
  const actions = actionsOf(request.operation, request.body);
  if (!actions || actions.length === 0) return undefined;
  const resolved = await resolveActions(semantics, actions);
  if (!resolved) return undefined;
  switch (request.operation) {
    case 'TransactWriteItems':
      return transactWrite(semantics, request, resolved);
    case 'TransactGetItems':
      return transactGet(semantics, request, resolved);
    case 'BatchWriteItem':
      return batchWrite(semantics, request, resolved);
    default:
      return singleWrite(semantics, request, resolved[0] as Resolved);
  }
}
