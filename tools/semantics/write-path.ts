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
import type { IncomingHttpHeaders } from 'node:http';
import type { SemanticsConfig } from './config';
import { appliedWriteCharges, failedConditionCharges, partitionId, predictedCharges, tablePartition, type Charge, type Partition } from './cost-model';
import type { Buckets } from './buckets';
import type { Holds } from './holds';
import type { ItemLocks } from './item-locks';
import { actionsOf, batchBody, type Action } from './requests';
import { jsonAnswer, throughputExceeded, transactionCanceled, transactionConflict, type CancellationCode, type ProxyAnswer, type ThrottlingReason } from './service-errors';
import type { Stats } from './stats';
import { itemId, keyOf, type SchemaCache, type TableSchema } from './table-schemas';
import type { Target } from './target';
import { predictUpdate } from './update-prediction';
import { isObject, itemOf, type Item, type Json } from './wire';

export interface ForwardedRequest {
  operation: string;
  body: Json;
}

/** Called before a request is forwarded to DynamoDB Local (tests hold a write open with it). */
export type BeforeForward = (request: ForwardedRequest) => Promise<void> | void;

export interface Semantics {
  target: Target;
  schemas: SchemaCache;
  holds: Holds;
  locks: ItemLocks;
  buckets: Buckets;
  stats: Stats;
  config: () => SemanticsConfig;
  beforeForward?: BeforeForward;
}

export interface ProxiedRequest {
  operation: string;
  body: Json;
  raw: Buffer;
  headers: IncomingHttpHeaders;
  path: string;
}

/** An answer for the caller: the proxy's own, or DynamoDB Local's. */
export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer | string;
}

interface Resolved extends Action {
  schema: TableSchema;
  key: Item;
  id: string;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function resolveActions(semantics: Semantics, actions: Action[]): Promise<Resolved[] | undefined> {
  const schemas = new Map<string, TableSchema>();
  for (const table of new Set(actions.map((action) => action.table))) {
    const schema = await semantics.schemas.get(table);
    if (!schema) return undefined;
    schemas.set(table, schema);
  }
  const resolved: Resolved[] = [];
  for (const action of actions) {
    const schema = schemas.get(action.table) as TableSchema;
    const key = keyOf(schema, action.key ?? action.item ?? {});
    // A key DynamoDB would refuse: let it say so.
    if (key[schema.partitionKey] === undefined || (schema.sortKey !== undefined && key[schema.sortKey] === undefined)) return undefined;
    resolved.push({ ...action, schema, key, id: itemId(schema, key) });
  }
  return resolved;
}

/** The items as stored now, by id (consistent reads); undefined when DynamoDB Local would not say. */
async function readItems(semantics: Semantics, headers: IncomingHttpHeaders, actions: Resolved[]): Promise<Map<string, Item | undefined> | undefined> {
  const found = new Map<string, Item | undefined>();
  if (actions.length === 0) return found;
  if (actions.length === 1) {
    const [action] = actions as [Resolved];
    const answer = await semantics.target.call('GetItem', { TableName: action.table, Key: action.key, ConsistentRead: true }, headers);
    if (answer.status !== 200) return undefined;
    found.set(action.id, itemOf(answer.body.Item));
    return found;
  }
  for (const action of actions) found.set(action.id, undefined);
  const schemaOf = new Map(actions.map((action) => [action.table, action.schema]));
  for (let start = 0; start < actions.length; start += 100) {
    let pending: Json = {};
    for (const action of actions.slice(start, start + 100)) {
      const entry = (pending[action.table] ??= { Keys: [], ConsistentRead: true }) as { Keys: Item[] };
      if (!entry.Keys.some((key) => itemId(action.schema, key) === action.id)) entry.Keys.push(action.key);
    }
    for (let round = 0; Object.keys(pending).length > 0; round++) {
      if (round > 10) return undefined;
      const answer = await semantics.target.call('BatchGetItem', { RequestItems: pending }, headers);
      if (answer.status !== 200) return undefined;
      for (const [table, items] of Object.entries(isObject(answer.body.Responses) ? answer.body.Responses : {})) {
        const schema = schemaOf.get(table);
        if (!schema || !Array.isArray(items)) continue;
        for (const item of items) if (isObject(item)) found.set(itemId(schema, keyOf(schema, item as Item)), item as Item);
      }
      pending = isObject(answer.body.UnprocessedKeys) ? answer.body.UnprocessedKeys : {};
    }
  }
  return found;
}

/** The item a write will leave, as far as it can be told before it runs. */
function predicted(action: Resolved, before: Item | undefined): { after: Item | undefined; unknown: Set<string> } {
  if (action.kind === 'put') return { after: action.item, unknown: new Set() };
  if (action.kind === 'delete') return { after: undefined, unknown: new Set() };
  return predictUpdate(action.update ?? {}, action.key, before);
}

/** The partitions over their ceiling among those this write will charge (none when the ceiling is off), and what it is expected to cost. */
function admission(semantics: Semantics, action: Resolved, before: Item | undefined, transactional: boolean): { closed: Partition[]; expected: Charge[] } {
  if (action.kind === 'check' || action.kind === 'get') return { closed: [], expected: [] };
  const { after, unknown } = predicted(action, before);
  const expected = predictedCharges(action.schema, action.key, before, after, unknown, transactional);
  if (!semantics.config().throttling) return { closed: [], expected };
  return { closed: expected.map((charge) => charge.partition).filter((partition) => !semantics.buckets.admits(partitionId(partition))), expected };
}

/** Takes an admitted write's expected cost from its buckets now; the returned function gives it back (once the actual cost is charged, or the write failed). */
function reserve(semantics: Semantics, expected: Charge[]): () => void {
  for (const { partition, units } of expected) semantics.buckets.charge(partitionId(partition), units);
  let returned = false;
  return () => {
    if (returned) return;
    returned = true;
    for (const { partition, units } of expected) semantics.buckets.charge(partitionId(partition), -units);
  };
}

function throttlingReason(schema: TableSchema, partition: Partition): ThrottlingReason {
  const index = schema.indexes.find((candidate) => candidate.name === partition.index);
  return index ? { reason: 'IndexWriteKeyRangeThroughputExceeded', resource: index.arn } : { reason: 'TableWriteKeyRangeThroughputExceeded', resource: schema.arn };
}

function charge(semantics: Semantics, charges: Charge[]): void {
  for (const { partition, units } of charges) {
    semantics.buckets.charge(partitionId(partition), units);
    semantics.stats.record(partition, { writes: 1, units });
  }
}

const errorType = (body: Buffer | string): string => {
  try {
    const parsed = JSON.parse(body.toString()) as Json;
    return typeof parsed.__type === 'string' ? (parsed.__type.split('#')[1] ?? parsed.__type) : '';
  } catch {
    return '';
  }
};

async function forward(semantics: Semantics, request: ProxiedRequest, body: Json, raw: Buffer): Promise<Answer> {
  await semantics.beforeForward?.({ operation: request.operation, body });
  return semantics.target.send('POST', request.path, request.headers, raw);
}

/**
 * The items after a successful write: given by the request for Put and Delete;
 * for Update, predicted from its expression and the item before (exact, the
 * item being locked: update-prediction.ts), or read again when the prediction
 * could not evaluate all of it.
 */
async function afterImages(
  semantics: Semantics,
  headers: IncomingHttpHeaders,
  actions: Resolved[],
  before: Map<string, Item | undefined>,
): Promise<Map<string, Item | undefined> | undefined> {
  const after = new Map<string, Item | undefined>();
  const unpredictable: Resolved[] = [];
  for (const action of actions) {
    if (action.kind === 'put') after.set(action.id, action.item);
    else if (action.kind === 'delete') after.set(action.id, undefined);
    else if (action.kind === 'update') {
      const prediction = predictUpdate(action.update ?? {}, action.key, before.get(action.id));
      if (prediction.unknown.size === 0) after.set(action.id, prediction.after);
      else unpredictable.push(action);
    }
  }
  const read = await readItems(semantics, headers, unpredictable);
  if (!read) return undefined;
  for (const [id, item] of read) after.set(id, item);
  return after;
}

function chargeApplied(semantics: Semantics, actions: Resolved[], before: Map<string, Item | undefined>, after: Map<string, Item | undefined>, transactional: boolean): void {
  for (const action of actions) {
    if (action.kind === 'check' || action.kind === 'get') continue;
    charge(semantics, appliedWriteCharges(action.schema, action.key, before.get(action.id), after.get(action.id), transactional));
  }
}

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
  let giveBack = () => undefined as void;
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
      actions.forEach((action, i) => conflicting[i] && stats.record(tablePartition(action.schema, action.key), { conflicts: 1 }));
      stats.request(request.operation, 'conflicted');
      return transactionCanceled(conflicting.map((conflict): CancellationCode => (conflict ? 'TransactionConflict' : 'None')));
    }
  }
  const release = semantics.config().conflicts ? holds.hold(ids, 'transaction') : () => undefined;
  let unlock = () => undefined as void;
  let giveBack = () => undefined as void;
  let forwarded = false;
  try {
    unlock = await semantics.locks.acquire(ids);
    const before = await readItems(semantics, request.headers, actions.filter((action) => action.kind !== 'check'));
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
    giveBack = reserve(semantics, admissions.flatMap(({ expected }) => expected));
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
  const release = semantics.config().conflicts ? holds.hold(candidates.map((action) => action.id), 'write') : () => undefined;
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
    const handedBack = new Set(Object.values(unprocessed).flat().map((element) => JSON.stringify(element)));
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
      actions.forEach((action, i) => conflicting[i] && semantics.stats.record(tablePartition(action.schema, action.key), { conflicts: 1 }));
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

export type { ProxyAnswer };
