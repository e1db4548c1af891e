/**
 * The items a DynamoDB request writes (or, for TransactGetItems, reads in a
 * transaction), read from its JSON body: one action per item, in the
 * request's order (a transaction's CancellationReasons follow that order).
 * Undefined for a body that is not such a request: the proxy forwards it as
 * it is and lets DynamoDB Local answer.
 */
import type { UpdateSpec } from './update-prediction';
import { isObject, itemOf, type Item, type Json } from './wire';

export type ActionKind = 'put' | 'update' | 'delete' | 'check' | 'get';

export interface Action {
  kind: ActionKind;
  table: string;
  /** Update, Delete, ConditionCheck, Get: the key given. */
  key?: Item;
  /** Put: the item given. */
  item?: Item;
  update?: UpdateSpec;
  /** BatchWriteItem: the request element as sent, to forward it or hand it back unprocessed. */
  source?: Json;
}

/** The operations whose items the proxy holds, sizes and charges. */
export const WRITE_OPERATIONS = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems', 'BatchWriteItem']);

function single(kind: ActionKind, spec: unknown): Action | undefined {
  if (!isObject(spec) || typeof spec.TableName !== 'string') return undefined;
  const action: Action = { kind, table: spec.TableName };
  if (kind === 'put') {
    action.item = itemOf(spec.Item);
    if (!action.item) return undefined;
  } else {
    action.key = itemOf(spec.Key);
    if (!action.key) return undefined;
  }
  if (kind === 'update') action.update = spec as UpdateSpec;
  return action;
}

const TRANSACT_KINDS: Record<string, ActionKind> = { Put: 'put', Update: 'update', Delete: 'delete', ConditionCheck: 'check', Get: 'get' };

function transactActions(body: Json): Action[] | undefined {
  if (!Array.isArray(body.TransactItems)) return undefined;
  const actions: Action[] = [];
  for (const element of body.TransactItems) {
    if (!isObject(element)) return undefined;
    const [name, spec] = Object.entries(element)[0] ?? [];
    const kind = name === undefined ? undefined : TRANSACT_KINDS[name];
    const action = kind ? single(kind, spec) : undefined;
    if (!action) return undefined;
    actions.push(action);
  }
  return actions;
}

function batchActions(body: Json): Action[] | undefined {
  if (!isObject(body.RequestItems)) return undefined;
  const actions: Action[] = [];
  for (const [table, requests] of Object.entries(body.RequestItems)) {
    if (!Array.isArray(requests)) return undefined;
    for (const source of requests) {
      if (!isObject(source)) return undefined;
      const put = isObject(source.PutRequest) ? itemOf(source.PutRequest.Item) : undefined;
      const key = isObject(source.DeleteRequest) ? itemOf(source.DeleteRequest.Key) : undefined;
      if (put) actions.push({ kind: 'put', table, item: put, source });
      else if (key) actions.push({ kind: 'delete', table, key, source });
      else return undefined;
    }
  }
  return actions;
}

export function actionsOf(operation: string, body: Json): Action[] | undefined {
  switch (operation) {
    case 'PutItem':
      return wrap(single('put', body));
    case 'UpdateItem':
      return wrap(single('update', body));
    case 'DeleteItem':
      return wrap(single('delete', body));
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return transactActions(body);
    case 'BatchWriteItem':
      return batchActions(body);
    default:
      return undefined;
  }
}

const wrap = (action: Action | undefined) => (action ? [action] : undefined);

/** BatchWriteItem's RequestItems holding these actions' request elements, by table. */
export function batchBody(actions: Action[]): Record<string, Json[]> {
  const byTable: Record<string, Json[]> = {};
  for (const action of actions) if (action.source) (byTable[action.table] ??= []).push(action.source);
  return byTable;
}
