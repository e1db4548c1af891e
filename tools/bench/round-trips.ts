import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { CallRecord, RequestTrace } from './counting';
import { itemSize, strongReadUnits, writeUnits } from './cost';
import { sequentialRounds } from './rounds';
import type { Shape, ShapeWorld } from './shapes';
import { median } from './stats';

/** What one shape measured, over all its samples. */
export interface ShapeResult {
  shape: Shape;
  samples: number;
  /** Samples whose status was not the expected one (a minute rolling over mid-sample, say): left out. */
  discarded: number;
  /** Calls per request: the most frequent value, and the range seen. */
  calls: Spread;
  keyCalls: Spread;
  rounds: Spread;
  waited: Spread;
  /** The calls of one sample in order, with their rounds: `R1 UpdateItem key ∥ GetItem contact`. */
  sequence: string;
  readUnits: number;
  writeUnits: number;
  p50ms: number;
  /** p50 with the injected delay per call. */
  p50msDelayed: number;
  met: boolean | undefined;
}

export interface Spread {
  mode: number;
  min: number;
  max: number;
}

function spread(values: number[]): Spread {
  const counts = new Map<number, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  const mode = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? Number.NaN;
  return { mode, min: Math.min(...values), max: Math.max(...values) };
}

const describeCall = (call: CallRecord) =>
  `${call.operation} ${call.item}${call.error === 'ConditionalCheckFailedException' ? ' (condition refused)' : call.error === 'TransactionCanceledException' ? ' (cancelled)' : ''}`;

/** The calls of a request by round: `R1: UpdateItem key ∥ GetItem contact → R2: …`. */
export function sequenceOf(trace: RequestTrace): string {
  if (trace.calls.length === 0) return '—';
  const { roundOf } = sequentialRounds(trace.calls);
  const byRound = new Map<number, string[]>();
  trace.calls.forEach((call, index) => {
    const round = roundOf[index] as number;
    byRound.set(round, [...(byRound.get(round) ?? []), describeCall(call)]);
  });
  return [...byRound.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([round, calls]) => `R${round}: ${calls.join(' ∥ ')}`)
    .join(' → ');
}

/**
 * Capacity of one request's calls. DynamoDB (Local too) reports consumed
 * capacity on success; a write whose condition was refused still consumes
 * units by the size of the item already stored (at least 1), which the
 * benchmark looks up afterwards with its own uncounted client.
 */
async function unitsOf(world: ShapeWorld, trace: RequestTrace): Promise<{ read: number; write: number }> {
  let read = 0;
  let write = 0;
  for (const call of trace.calls) {
    const isRead = call.operation === 'GetItem';
    let units = call.consumedUnits;
    if (units === undefined && call.key) {
      const found = await world.store.doc.send(new GetCommand({ TableName: call.table, Key: call.key, ConsistentRead: true }));
      const bytes = found.Item ? itemSize(marshall(found.Item, { removeUndefinedValues: true })) : 0;
      units = isRead ? strongReadUnits(bytes) : writeUnits(bytes);
    }
    if (isRead) read += units ?? 0;
    else write += units ?? 0;
  }
  return { read, write };
}

export interface RoundTripOptions {
  samples: number;
  delayMs: number;
  onProgress?: (line: string) => void;
}

/**
 * Runs every shape `samples` times without delay and `samples` times with
 * `delayMs` added to each DynamoDB call, one request at a time. Counts come
 * from every sample; rounds from the delayed ones, where calls that waited
 * for each other are `delayMs` apart at least.
 */
export async function measureRoundTrips(world: ShapeWorld, shapes: Shape[], options: RoundTripOptions): Promise<ShapeResult[]> {
  const results: ShapeResult[] = [];
  for (const shape of shapes) {
    const plain: number[] = [];
    const delayed: number[] = [];
    const traces: RequestTrace[] = [];
    const delayedTraces: RequestTrace[] = [];
    let discarded = 0;
    let units: { read: number; write: number } | undefined;
    for (let sample = 0; sample < options.samples * 2; sample += 1) {
      // Alternate, so drift on a shared machine hits both alike.
      const withDelay = sample % 2 === 1;
      const request = await shape.prepare(world);
      world.measured.delay.ms = withDelay ? options.delayMs : 0;
      const reply = await world.measured.send(request).finally(() => {
        world.measured.delay.ms = 0;
      });
      if (reply.status !== shape.status || !reply.trace) {
        discarded += 1;
        if (discarded > options.samples) {
          throw new Error(`shape ${shape.id}: expected ${shape.status}, got ${reply.status} ${reply.body}`);
        }
        continue;
      }
      (withDelay ? delayed : plain).push(reply.ms);
      (withDelay ? delayedTraces : traces).push(reply.trace);
      if (!withDelay && units === undefined) units = await unitsOf(world, reply.trace);
    }
    const all = [...traces, ...delayedTraces];
    const summaries = delayedTraces.map((trace) => sequentialRounds(trace.calls));
    const counts = {
      calls: spread(all.map((trace) => trace.calls.length)),
      keyCalls: spread(all.map((trace) => trace.calls.filter((call) => call.item === 'key').length)),
      rounds: spread(summaries.map((summary) => summary.rounds)),
      waited: spread(summaries.map((summary) => summary.waited)),
    };
    const sampleTrace = delayedTraces[0] ?? traces[0];
    // Held to the worst sample, not the typical one.
    const worst = { calls: counts.calls.max, keyCalls: counts.keyCalls.max, rounds: counts.rounds.max };
    const met = shape.targets.length === 0 ? undefined : shape.targets.every((target) => target.met(worst));
    const result: ShapeResult = {
      shape,
      samples: all.length,
      discarded,
      ...counts,
      sequence: sampleTrace ? sequenceOf(sampleTrace) : '—',
      readUnits: units?.read ?? 0,
      writeUnits: units?.write ?? 0,
      p50ms: median(plain),
      p50msDelayed: median(delayed),
      met,
    };
    results.push(result);
    options.onProgress?.(
      `  ${shape.id.padEnd(34)} ${String(result.calls.mode).padStart(2)} calls ${String(result.rounds.mode).padStart(2)} rounds  p50 ${result.p50ms.toFixed(1)} ms, ${result.p50msDelayed.toFixed(1)} ms with +${options.delayMs} ms/call`,
    );
  }
  return results;
}
