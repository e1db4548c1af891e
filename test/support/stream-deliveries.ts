import fc from 'fast-check';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import type { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import type { SequencedEvent } from '../../lambda/ingest/tally/ports';
import { tallyBatch } from '../../lambda/ingest/tally/tally-batch';

/**
 * One delivery of a shard's records: a contiguous run of them, `size` long,
 * from `from` or from the first record never delivered, whichever comes
 * first: a stream hands a shard's records over in order the first time, and
 * again (a retry) only from a place it had already reached.
 */
export interface Delivery {
  from: number;
  size: number;
  consumer: 0 | 1;
}

/** Deliveries of shards up to `maxFrom` records long, `maxSize` at a time, to either of two consumers. */
export const deliveryArbitrary = (maxFrom: number, maxSize: number): fc.Arbitrary<Delivery> =>
  fc.record({ from: fc.nat(maxFrom), size: fc.integer({ min: 1, max: maxSize }), consumer: fc.constantFrom<0 | 1>(0, 1) });

/** The stored events as two stream shards: even events in one, odd in the other, each in its own order. */
export function twoShards(stored: StoredEvent[]): SequencedEvent[][] {
  return [0, 1].map((shard) => stored.flatMap((event, i): SequencedEvent[] => (i % 2 === shard ? [{ seq: padSequence(String(1000 + i)), event }] : [])));
}

/**
 * Plays `deliveries` (repeats and overlaps included) over the shards, two at
 * a time, alternating shards, each to its consumer: what the stream and
 * Lambda's retries may hand a consumer before it gets to the end of each
 * shard. `consume` gets the consumer's number, the shard's key and the run of
 * records delivered.
 */
export async function playDeliveriesTo<T>(
  shards: readonly (readonly T[])[],
  deliveries: readonly Delivery[],
  consume: (consumer: 0 | 1, shardKey: string, records: T[]) => Promise<unknown>,
): Promise<void> {
  const reached = shards.map(() => 0);
  for (let i = 0; i < deliveries.length; i += 2) {
    await Promise.all(
      deliveries.slice(i, i + 2).map(({ from, size, consumer }, j) => {
        const s = (i + j) % shards.length;
        const shard = shards[s] as readonly T[];
        const start = Math.min(from, reached[s] as number);
        reached[s] = Math.max(reached[s] as number, start + size);
        return consume(consumer, `shard${s}`, shard.slice(start, start + size));
      }),
    );
  }
}

/** playDeliveriesTo with the tally's batches, each to its consumer's store. */
export function playDeliveries(shards: SequencedEvent[][], consumers: DynamoTallyStore[], deliveries: Delivery[]): Promise<void> {
  return playDeliveriesTo(shards, deliveries, (consumer, shardKey, records) => tallyBatch(consumers[consumer] as DynamoTallyStore, shardKey, records));
}
