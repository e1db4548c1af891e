import {
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type DynamoDBStreamsClient,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord } from 'aws-lambda';
import type { StreamFailurePolicy } from '../../../lib/stream-failures';
import type { ShardPlace } from './checkpoints';
import type { StreamConsumer } from './stream-consumer';

/** Records per GetRecords call: the API's most. */
const RECORDS_PER_CALL = 1000;
/** Records per batch at most: the tally's event source mapping's batch size (lib/tally.ts). */
const BATCH_SIZE = 1000;
/** The streams API's refusals of an iterator that its shard's place can replace. */
const STALE_ITERATOR = new Set(['ExpiredIteratorException', 'TrimmedDataAccessException']);

/** What a consumer was handed, how often it failed, and how many records it was made to give up. */
export interface ConsumerCounts {
  records: number;
  batches: number;
  failures: number;
  givenUp: number;
}

/**
 * A batch given up on: where it is in the stream, as Lambda describes one to a failure destination
 * (DDBStreamBatchInfo), which consumer gave it up and why, and the last error's class and message.
 */
export interface GivenUpBatch {
  consumer: string;
  shardId: string;
  startSequenceNumber: string;
  endSequenceNumber: string;
  batchSize: number;
  condition: 'RetryAttemptsExhausted' | 'RecordAgeExceeded';
  error: string;
  at: string;
}

/** How a reader treats a batch that fails (lib/stream-failures.ts), its clock, and whom it tells. */
export interface ReaderSettings {
  policy: StreamFailurePolicy;
  now: () => number;
  onError?: (consumer: string, error: unknown) => void;
  onGiveUp?: (batch: GivenUpBatch) => void;
}

/** Sequence numbers are decimal strings of different lengths: compared as numbers. */
const notBefore = (a: string, b: string): boolean => a.padStart(40, '0') >= b.padStart(40, '0');

/** What to do after a failed batch: read half of it at once, try it again after the pause, or go on past it (given up). */
type AfterFailure = 'split' | 'retry-later' | 'given-up';

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
 * took the batch, or gave it up. A batch that fails is split in two and each
 * half tried at once, down to the one record that fails; that record is tried
 * again after the poller's pause, `policy.retryAttempts` times, or until it
 * is older than `policy.maxRecordAgeSeconds`; then it is given up (told to
 * `onGiveUp`, counted) and the records after it are read
 * (docs/development.md#the-tables-stream-on-one-machine).
 */
export class ShardReader {
  constructor(
    private readonly streams: DynamoDBStreamsClient,
    private readonly streamArn: string,
    private readonly settings: ReaderSettings,
  ) {}

  /**
   * One consumer, one shard: every record there is now, in batches of up
   * to BATCH_SIZE (fewer while a failing batch is split), as Lambda's
   * batching window gathers them (what came in since the last pass goes as
   * one batch; a backlog as full batches back to back). Answers whether a
   * batch failed and is to be tried again after the pause.
   */
  async readShard(consumer: StreamConsumer, shardId: string, place: ShardPlace, counts: ConsumerCounts): Promise<boolean> {
    for (;;) {
      const batch = await this.gather(shardId, place, place.failing?.size ?? BATCH_SIZE);
      const accepted = batch.records.filter((record) => consumer.accepts(record));
      const error = await this.hand(consumer, shardId, accepted, counts);
      if (error !== undefined) {
        const next = this.afterFailure(consumer.name, shardId, place, batch, accepted, error, counts);
        // From the first record of this batch again: now (split), or next time (retried).
        if (next !== 'given-up') place.iterator = undefined;
        if (next === 'retry-later') return true;
        if (next === 'split') continue;
      } else {
        place.after = batch.after;
        place.iterator = batch.iterator;
        if (place.failing && place.after !== undefined && notBefore(place.after, place.failing.until)) place.failing = undefined;
      }
      if (!place.iterator) {
        place.closed = true;
        return false;
      }
      if (batch.ended) return false;
    }
  }

  /** The records the consumer accepts, handed over as one event: the error it failed with, if it did (a batch with none of them is taken). */
  private async hand(consumer: StreamConsumer, shardId: string, accepted: DynamoDBRecord[], counts: ConsumerCounts): Promise<unknown> {
    if (accepted.length === 0) return undefined;
    try {
      await consumer.handle({ Records: accepted, shardId, state: {} });
    } catch (error) {
      return error ?? new Error('the consumer failed without an error');
    }
    counts.records += accepted.length;
    counts.batches += 1;
    return undefined;
  }

  /** A failed batch: split it, try it again later, or give it up and move its consumer's place past it. */
  private afterFailure(
    consumer: string,
    shardId: string,
    place: ShardPlace,
    batch: Gathered,
    accepted: DynamoDBRecord[],
    error: unknown,
    counts: ConsumerCounts,
  ): AfterFailure {
    const { policy, now } = this.settings;
    counts.failures += 1;
    this.settings.onError?.(consumer, error);
    const failing = place.failing ?? { size: batch.records.length, tries: 0, until: batch.after ?? '' };
    const created = accepted[0]?.dynamodb?.ApproximateCreationDateTime;
    const tooOld = created !== undefined && now() / 1000 - created > policy.maxRecordAgeSeconds;
    if (!tooOld && policy.bisect && accepted.length > 1) {
      place.failing = { ...failing, size: Math.ceil(batch.records.length / 2) };
      return 'split';
    }
    const tries = failing.tries + 1;
    if (!tooOld && tries <= policy.retryAttempts) {
      place.failing = { ...failing, tries };
      return 'retry-later';
    }
    const sequences = accepted.map((record) => record.dynamodb?.SequenceNumber ?? '');
    counts.givenUp += accepted.length;
    this.settings.onGiveUp?.({
      consumer,
      shardId,
      startSequenceNumber: sequences[0] ?? '',
      endSequenceNumber: sequences[sequences.length - 1] ?? '',
      batchSize: accepted.length,
      condition: tooOld ? 'RecordAgeExceeded' : 'RetryAttemptsExhausted',
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
      at: new Date(now()).toISOString(),
    });
    place.after = batch.after;
    place.iterator = batch.iterator;
    // Still inside the batch that first failed: its rest is read as small as the split left it, each record with fresh tries.
    place.failing = batch.after !== undefined && notBefore(batch.after, failing.until) ? undefined : { ...failing, tries: 0 };
    return 'given-up';
  }

  /** Up to `size` records from the shard's place, page by page, until the batch is full or the shard has no more for now. */
  private async gather(shardId: string, place: ShardPlace, size: number): Promise<Gathered> {
    const records: DynamoDBRecord[] = [];
    let iterator = place.iterator ?? (await this.iteratorFor(shardId, place));
    let after = place.after;
    while (iterator && records.length < size) {
      const page = await this.page(place, iterator, size - records.length);
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
