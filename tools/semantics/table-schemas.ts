/**
 * What the proxy must know of a table to cost a write: its key attributes and
 * each global secondary index's keys and projection. Read once per table with
 * DescribeTable through the target and kept; CreateTable, UpdateTable and
 * DeleteTable through the proxy drop the table's entry, so the next write reads
 * it again (an index added by UpdateTable is costed from then on).
 */
import { isObject, type Item, type Json } from './wire';

export type Projection = { type: 'ALL' } | { type: 'KEYS_ONLY' } | { type: 'INCLUDE'; attributes: string[] };

export interface IndexSchema {
  name: string;
  partitionKey: string;
  sortKey?: string;
  projection: Projection;
  /** For ThrottlingReasons: the index's ARN. */
  arn: string;
}

export interface TableSchema {
  name: string;
  partitionKey: string;
  sortKey?: string;
  /** Global secondary indexes only: a local one shares the table's partition (not modelled). */
  indexes: IndexSchema[];
  arn: string;
}

function keysOf(keySchema: unknown): { partitionKey: string; sortKey?: string } | undefined {
  if (!Array.isArray(keySchema)) return undefined;
  const named = (type: string) => keySchema.find((element: unknown) => isObject(element) && element.KeyType === type) as Json | undefined;
  const hash = named('HASH')?.AttributeName;
  const range = named('RANGE')?.AttributeName;
  if (typeof hash !== 'string') return undefined;
  return typeof range === 'string' ? { partitionKey: hash, sortKey: range } : { partitionKey: hash };
}

function projectionOf(value: unknown): Projection {
  const projection = isObject(value) ? value : {};
  if (projection.ProjectionType === 'ALL') return { type: 'ALL' };
  if (projection.ProjectionType === 'INCLUDE') {
    const attributes = Array.isArray(projection.NonKeyAttributes) ? projection.NonKeyAttributes.filter((name): name is string => typeof name === 'string') : [];
    return { type: 'INCLUDE', attributes };
  }
  return { type: 'KEYS_ONLY' };
}

/** The schema from a DescribeTable answer's `Table`; undefined when it is not one. */
export function schemaFromDescription(table: unknown): TableSchema | undefined {
  if (!isObject(table) || typeof table.TableName !== 'string') return undefined;
  const keys = keysOf(table.KeySchema);
  if (!keys) return undefined;
  const arn = typeof table.TableArn === 'string' ? table.TableArn : `arn:aws:dynamodb:ddblocal:000000000000:table/${table.TableName}`;
  const indexes = (Array.isArray(table.GlobalSecondaryIndexes) ? table.GlobalSecondaryIndexes : []).flatMap((index: unknown): IndexSchema[] => {
    if (!isObject(index) || typeof index.IndexName !== 'string') return [];
    const indexKeys = keysOf(index.KeySchema);
    if (!indexKeys) return [];
    return [{ name: index.IndexName, ...indexKeys, projection: projectionOf(index.Projection), arn: `${arn}/index/${index.IndexName}` }];
  });
  return { name: table.TableName, ...keys, indexes, arn };
}

/** The primary key of an item (its key attributes only), in the schema's order. */
export function keyOf(schema: TableSchema, item: Item): Item {
  const key: Item = {};
  const partition = item[schema.partitionKey];
  if (partition) key[schema.partitionKey] = partition;
  if (schema.sortKey) {
    const sort = item[schema.sortKey];
    if (sort) key[schema.sortKey] = sort;
  }
  return key;
}

/** Names an item of a table for holds and locks: the table and its key values, in the schema's order. */
export function itemId(schema: TableSchema, key: Item): string {
  const values = [key[schema.partitionKey], schema.sortKey ? key[schema.sortKey] : undefined];
  return `${schema.name}\u0000${JSON.stringify(values)}`;
}

/** Schemas by table name, each fetched once (concurrent callers share the fetch). */
export class SchemaCache {
  private readonly entries = new Map<string, Promise<TableSchema | undefined>>();

  constructor(private readonly describe: (table: string) => Promise<TableSchema | undefined>) {}

  get(table: string): Promise<TableSchema | undefined> {
    let entry = this.entries.get(table);
    if (!entry) {
      entry = this.describe(table).catch(() => undefined);
      this.entries.set(table, entry);
      // A table that does not exist (yet) is asked again next time.
      void entry.then((schema) => {
        if (!schema && this.entries.get(table) === entry) this.entries.delete(table);
      });
    }
    return entry;
  }

  forget(table: string): void {
    this.entries.delete(table);
  }
}
