/**
 * What the write path works with: the proxy's parts (Semantics), a request
 * as received, the answer sent back, and the request's actions resolved
 * against their tables' schemas.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Buckets } from './buckets';
import type { SemanticsConfig } from './config';
import type { Holds } from './holds';
import type { ItemLocks } from './item-locks';
import type { Action } from './requests';
import type { Stats } from './stats';
import { itemId, keyOf, type SchemaCache, type TableSchema } from './table-schemas';
import type { Target } from './target';
import type { Item, Json } from './wire';

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

/** An action of a request with its table's schema, its key and the item's id (holds and locks). */
export interface Resolved extends Action {
  schema: TableSchema;
  key: Item;
  id: string;
}

/** The actions with their schemas and keys; undefined when a table is unknown or a key incomplete (DynamoDB Local then answers the request). */
export async function resolveActions(semantics: Semantics, actions: Action[]): Promise<Resolved[] | undefined> {
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

/** Forwards a request (its body possibly rewritten) to DynamoDB Local, after the test hook. */
export async function forward(semantics: Semantics, request: ProxiedRequest, body: Json, raw: Buffer): Promise<Answer> {
  await semantics.beforeForward?.({ operation: request.operation, body });
  return semantics.target.send('POST', request.path, request.headers, raw);
}
