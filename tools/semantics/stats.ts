/**
 * What the proxy counted, per partition key value (of a table or of an index)
 * and in total per table and per index, for tests and benchmarks:
 *   writes     writes that charged the partition (an index: entries put or removed)
 *   units      write units charged
 *   throttles  writes refused because this partition was over its ceiling
 *   conflicts  writes refused because an item of this partition was held
 * and per operation, the requests received and how many were refused.
 */
import { partitionId, type Partition } from './cost-model';

export interface Counts {
  writes: number;
  units: number;
  throttles: number;
  conflicts: number;
}

export interface PartitionStats extends Counts {
  table: string;
  /** Absent for the table itself. */
  index?: string;
  key: string;
}

export interface OperationStats {
  requests: number;
  throttled: number;
  conflicted: number;
}

export interface StatsFilter {
  table?: string;
  /** An index name; `''` for the table's own partitions only. */
  index?: string;
  /** Keys beginning with this text (or with any of these). */
  prefix?: string | string[];
  /** At most this many partitions listed (the most charged); `matched` still sums all those selected. */
  limit?: number;
}

export interface StatsSnapshot {
  /** When counting started (the proxy's start or the last reset). */
  since: string;
  operations: Record<string, OperationStats>;
  /** By table name, and by `table/index` for each index. */
  totals: Record<string, Counts>;
  /** The partitions the filter selects (all of them without one), most write units first, at most `limit`. */
  partitions: PartitionStats[];
  /** Sums over `partitions`. */
  matched: Counts;
}

const zero = (): Counts => ({ writes: 0, units: 0, throttles: 0, conflicts: 0 });

function add(into: Counts, counts: Partial<Counts>): void {
  into.writes += counts.writes ?? 0;
  into.units += counts.units ?? 0;
  into.throttles += counts.throttles ?? 0;
  into.conflicts += counts.conflicts ?? 0;
}

export const totalName = (partition: Pick<Partition, 'table' | 'index'>): string =>
  partition.index ? `${partition.table}/${partition.index}` : partition.table;

export function matches(partition: PartitionStats, filter: StatsFilter): boolean {
  if (filter.table !== undefined && partition.table !== filter.table) return false;
  if (filter.index !== undefined && (partition.index ?? '') !== filter.index) return false;
  if (filter.prefix !== undefined) {
    const prefixes = Array.isArray(filter.prefix) ? filter.prefix : [filter.prefix];
    if (!prefixes.some((prefix) => partition.key.startsWith(prefix))) return false;
  }
  return true;
}

export class Stats {
  private partitions = new Map<string, PartitionStats>();
  private operations = new Map<string, OperationStats>();
  private since = new Date();

  /** Counts on one partition. */
  record(partition: Partition, counts: Partial<Counts>): void {
    const id = partitionId(partition);
    let entry = this.partitions.get(id);
    if (!entry) {
      entry = { table: partition.table, ...(partition.index ? { index: partition.index } : {}), key: partition.key, ...zero() };
      this.partitions.set(id, entry);
    }
    add(entry, counts);
  }

  /** Counts one request of an operation, and how it was refused if it was. */
  request(operation: string, outcome: 'passed' | 'throttled' | 'conflicted' = 'passed'): void {
    const entry = this.operations.get(operation) ?? { requests: 0, throttled: 0, conflicted: 0 };
    entry.requests++;
    if (outcome === 'throttled') entry.throttled++;
    if (outcome === 'conflicted') entry.conflicted++;
    this.operations.set(operation, entry);
  }

  snapshot(filter: StatsFilter = {}): StatsSnapshot {
    const totals: Record<string, Counts> = {};
    const partitions: PartitionStats[] = [];
    const matched = zero();
    for (const partition of this.partitions.values()) {
      add((totals[totalName(partition)] ??= zero()), partition);
      if (matches(partition, filter)) {
        partitions.push({ ...partition });
        add(matched, partition);
      }
    }
    partitions.sort((a, b) => b.units - a.units || a.key.localeCompare(b.key));
    if (filter.limit !== undefined) partitions.splice(filter.limit);
    return {
      since: this.since.toISOString(),
      operations: Object.fromEntries([...this.operations].map(([name, counts]) => [name, { ...counts }])),
      totals,
      partitions,
      matched,
    };
  }

  reset(): void {
    this.partitions = new Map();
    this.operations = new Map();
    this.since = new Date();
  }
}
