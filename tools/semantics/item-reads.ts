/**
 * The items a write touches, as stored before it and as left after it: what
 * the cost of the write is computed from (cost-model.ts). Reads are
 * consistent, through the target, as the caller (its credentials' namespace).
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Resolved, Semantics } from './context';
import { itemId, keyOf } from './table-schemas';
import { predictUpdate } from './update-prediction';
import { isObject, itemOf, type Item, type Json } from './wire';

export /** The items as stored now, by id (consistent reads); undefined when DynamoDB Local would not say. */
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

export /**
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
