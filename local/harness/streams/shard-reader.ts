import {
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { ShardPlace } from './checkpoints';
import type { StreamConsumer } from './stream-consumer';

/** Records per GetRecords call: the API's most. */
const RECORDS_PER_CALL = 1000;
/** Records per batch at most: the tally's event source mapping's batch size (lib/tally.ts). */
const BATCH_SIZE = 1000;
/** The streams API's refusals of an iterator that its shard's place can replace. */
const STALE_ITERATOR = new Set(['ExpiredIteratorException', 'TrimmedDataAccessException']);

/** What a consumer was handed, and how often it failed. */
export interface ConsumerCounts {
  records: number;
  batches: number;
  failures: number;
}

/** A record of the streams API as Lambda's event carries it (ApproximateCreationDateTime in epoch seconds). */
export function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
  const dynamodb = record.dynamodb ?? {};
  const created = dynamodb.ApproximateCreationDateTime;
  return {
    eventID: record.eventID,
    eventName: record.eventName as DynamoDBRecord['eventName'],
    eventVersion: record.eventVersion ?? '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: record.awsRegion ?? 'ddblocal',
    eventSourceARN: streamArn,
    dynamodb: {
      ...(created ? { ApproximateCreationDateTime: Math.floor(new Date(created).getTime() / 1000) } : {}),
      Keys: dynamodb.Keys as NonNullable<DynamoDBRecord['dynamodb']>['Keys'],
      NewImage: dynamodb.NewImage as NonNullable<DynamoDBRecord['dynamodb']>['NewImage'],
      OldImage: dynamodb.OldImage as NonNullable<DynamoDBRecord['dynamodb']>['OldImage'],
      SequenceNumber: dynamodb.SequenceNumber,
      SizeBytes: dynamodb.SizeBytes,
      StreamViewType: dynamodb.StreamViewType as NonNullable<DynamoDBRecord['dynamodb']>['StreamViewType'],
    },
  };
}

/** A batch read from a shard: its records, the last one's sequence number, where the shard goes on, and whether it reached the shard's end for now. */
interface Gathered {
  records: DynamoDBRecord[];
  after?: string;
  iterator?: string;
  ended: boolean;
}

/**
 * Reads one stream's shards for its consumers, as Lambda's event source
 * mapping does: batches of up to BATCH_SIZE, in order, each handed to the
 * consumer with its shard's id; a consumer's place moves on only when it
 * took the batch.
 */
export class ShardReader {
  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly onError?: (consumer: string, error: unknown) => void,
  ) {}

  /**
   * One consumer, one shard: every record there is now, in batches of up
   * to BATCH_SIZE, as Lambda's batching window gathers them (what came in
   * since the last pass goes as one batch; a backlog as full batches back to
   * back). Answers whether a batch failed.
   */
  async readShard(consumer: StreamConsumer, shardId: string, place: ShardPlace, counts: ConsumerCounts): Promise<boolean> {
    for (;;) {
      const batch = await this.gather(shardId, place);
      if (!(await this.hand(consumer, shardId, batch.records, counts))) {
        // From the first record of this batch again, next time.
        place.iterator = undefined;
        return true;
      }
      place.after = batch.after;
      place.iterator = batch.iterator;
      if (!batch.iterator) {
        place.closed = true;
        return false;
      }
      if (batch.ended) return false;
    }
  }

  /** The records the consumer accepts, handed over as one event: whether it took them (a batch with none of them is taken). */
  private async hand(consumer: StreamConsumer, shardId: string, records: DynamoDBRecord[], counts: ConsumerCounts): Promise<boolean> {
    const accepted = records.filter((record) => consumer.accepts(record));
    if (accepted.length === 0) return true;
    try {
      await consumer.handle({ Records: accepted, shardId, state: {} });
    } catch (error) {
      counts.failures += 1;
      this.onError?.(consumer.name, error);
      return false;
    }
    counts.records += accepted.length;
    counts.batches += 1;
    return true;
  }

  /** Up to BATCH_SIZE records from the shard's place, page by page, until the batch is full or the shard has no more for now. */
  private async gather(shardId: string, place: ShardPlace): Promise<Gathered> {
    const records: DynamoDBRecord[] = [];
    let iterator = place.iterator ?? (await this.iteratorFor(shardId, place));
    let after = place.after;
    while (iterator && records.length < BATCH_SIZE) {
      const page = await this.page(place, iterator, BATCH_SIZE - records.length);
      if (!page) {
        iterator = await this.iteratorFor(shardId, place);
        continue;
      }
      const read = (page.Records ?? []).map((record) => lambdaRecord(record, this.streamArn));
      records.push(...read);
      after = read[read.length - 1]?.dynamodb?.SequenceNumber ?? after;
      iterator = page.NextShardIterator;
      if (read.length === 0) return { records, after, iterator, ended: true };
    }
    return { records, after, iterator, ended: false };
  }

  /**
   * One GetRecords call; none when the iterator kept from an earlier pass
   * was refused as stale: expired after 15 minutes, or, by DynamoDB Local,
   * called trimmed when its shard had no record yet (seen in the
   * bundled-asset tests). The shard's place says where to start again, so
   * a new iterator from it reads nothing twice and skips nothing.
   */
  private async page(place: ShardPlace, iterator: string, room: number): Promise<GetRecordsCommandOutput | undefined> {
    try {
      return await this.streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: Math.min(RECORDS_PER_CALL, room) }));
    } catch (error) {
      if (iterator === place.iterator && STALE_ITERATOR.has((error as Error).name)) {
        place.iterator = undefined;
        return undefined;
      }
      throw error;
    }
  }

  /** An iterator from the shard's place: after its last record handed over, or from the oldest record kept. */
  private async iteratorFor(shardId: string, place: ShardPlace): Promise<string | undefined> {
    const found = await this.streams.send(
      new GetShardIteratorCommand({
        StreamArn: this.streamArn,
        ShardId: shardId,
        ...(place.after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: place.after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return found.ShardIterator;
  }
}
