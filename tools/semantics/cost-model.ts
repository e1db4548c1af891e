/**
 * What a write costs, and where: write units charged to the partition key of
 * the table and to the partition key of every global secondary index entry it
 * puts or removes. Pure: it reads the item before and after the write (the
 * proxy reads them through DynamoDB Local, see write-path.ts).
 *
 * The rules, from AWS's DynamoDB developer guide:
 * - a PutItem, UpdateItem or DeleteItem costs one write unit per started KB
 *   of the larger of the item before and after ("DynamoDB read and write
 *   operations", read-write-operations.html); a delete of a missing item, one;
 * - inside TransactWriteItems, twice that: DynamoDB prepares and commits each
 *   item ("Capacity management for transactions", transaction-apis.html
 *   #transaction-capacity-handling); a ConditionCheck reads and is not a write;
 * - a conditional write whose condition fails still costs write units, for the
 *   existing item (at least one), on the table only (read-write-operations.html);
 * - global secondary indexes ("Provisioned throughput considerations for
 *   global secondary indexes", GSI.html#GSI.ThroughputConsiderations): an
 *   entry put into the index costs one unit per started KB of the entry; an
 *   entry removed, one; an entry whose index key changes, both (removal and
 *   insertion); an entry whose projected attributes change, the entry's
 *   units; an item in the index neither before nor after, nothing.
 * The index entry's size here: the table's key attributes, the index's key
 * attributes and the projected attributes. The guide adds 100 bytes per entry
 * for storage; writes are costed without it (it would only change entries
 * within 100 bytes of a KB boundary).
 */
import { itemSize, writeUnitsOf } from './item-size';
import type { IndexSchema, TableSchema } from './table-schemas';
import { keyText, sameValue, type Item } from './wire';

/** A partition key value of a table, or of one of its indexes. */
export interface Partition {
  table: string;
  index?: string;
  key: string;
}

export interface Charge {
  partition: Partition;
  units: number;
}

export const partitionId = (partition: Partition): string => `${partition.table}\u0000${partition.index ?? ''}\u0000${partition.key}`;

/** The entry an item has in an index, or undefined when it lacks the index's keys (a sparse index). */
export function indexEntry(table: TableSchema, index: IndexSchema, item: Item | undefined): Item | undefined {
  if (!item) return undefined;
  if (item[index.partitionKey] === undefined || (index.sortKey !== undefined && item[index.sortKey] === undefined)) return undefined;
  if (index.projection.type === 'ALL') return item;
  const names = [
    table.partitionKey,
    table.sortKey,
    index.partitionKey,
    index.sortKey,
    ...(index.projection.type === 'INCLUDE' ? index.projection.attributes : []),
  ];
  const entry: Item = {};
  for (const name of names) {
    const value = name === undefined ? undefined : item[name];
    if (name !== undefined && value !== undefined) entry[name] = value;
  }
  return entry;
}

function sameEntry(a: Item, b: Item): boolean {
  const names = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...names].every((name) => sameValue(a[name], b[name]));
}

const indexPartition = (table: TableSchema, index: IndexSchema, entry: Item): Partition => ({
  table: table.name,
  index: index.name,
  key: keyText(entry[index.partitionKey]) ?? '',
});

/** What one index costs for an item going from `before` to `after`. */
export function indexCharges(table: TableSchema, index: IndexSchema, before: Item | undefined, after: Item | undefined): Charge[] {
  const old = indexEntry(table, index, before);
  const next = indexEntry(table, index, after);
  if (!old && !next) return [];
  if (old && !next) return [{ partition: indexPartition(table, index, old), units: 1 }];
  if (!old && next) return [{ partition: indexPartition(table, index, next), units: writeUnitsOf(itemSize(next)) }];
  const was = old as Item;
  const now = next as Item;
  const keyMoved =
    !sameValue(was[index.partitionKey], now[index.partitionKey]) || (index.sortKey !== undefined && !sameValue(was[index.sortKey], now[index.sortKey]));
  if (keyMoved) {
    return [
      { partition: indexPartition(table, index, was), units: 1 },
      { partition: indexPartition(table, index, now), units: writeUnitsOf(itemSize(now)) },
    ];
  }
  return sameEntry(was, now) ? [] : [{ partition: indexPartition(table, index, now), units: writeUnitsOf(itemSize(now)) }];
}

export const tablePartition = (table: TableSchema, key: Item): Partition => ({ table: table.name, key: keyText(key[table.partitionKey]) ?? '' });

/** An applied write (Put, Update or Delete) of the item with `key`, from `before` to `after`. */
export function appliedWriteCharges(table: TableSchema, key: Item, before: Item | undefined, after: Item | undefined, transactional: boolean): Charge[] {
  const units = writeUnitsOf(Math.max(itemSize(before), itemSize(after))) * (transactional ? 2 : 1);
  return [{ partition: tablePartition(table, key), units }, ...table.indexes.flatMap((index) => indexCharges(table, index, before, after))];
}

/** A single write refused by its condition: the larger of the existing item and the item it would have put. */
export function failedConditionCharges(table: TableSchema, key: Item, before: Item | undefined, wouldPut: Item | undefined): Charge[] {
  return [{ partition: tablePartition(table, key), units: writeUnitsOf(Math.max(itemSize(before), itemSize(wouldPut))) }];
}

/** Whether an index entry holds this attribute (every attribute for an ALL projection). */
function projects(table: TableSchema, index: IndexSchema, name: string): boolean {
  if (index.projection.type === 'ALL') return true;
  const names = [table.partitionKey, table.sortKey, index.partitionKey, index.sortKey];
  return names.includes(name) || (index.projection.type === 'INCLUDE' && index.projection.attributes.includes(name));
}

/**
 * What a write is expected to charge, for admission (before it runs): the
 * charges from `before` to the predicted `after`, plus, for each index whose
 * projected attributes the write changes in a way the prediction could not
 * evaluate (`unknown`: top-level attribute names), the entry's units.
 */
export function predictedCharges(
  table: TableSchema,
  key: Item,
  before: Item | undefined,
  after: Item | undefined,
  unknown: ReadonlySet<string>,
  transactional: boolean,
): Charge[] {
  const charges = appliedWriteCharges(table, key, before, after, transactional);
  for (const index of table.indexes) {
    const next = indexEntry(table, index, after);
    if (!next || ![...unknown].some((name) => projects(table, index, name))) continue;
    const partition = indexPartition(table, index, next);
    if (!charges.some((charge) => partitionId(charge.partition) === partitionId(partition))) charges.push({ partition, units: writeUnitsOf(itemSize(next)) });
  }
  return charges;
}
