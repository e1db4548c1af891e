import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DescribeStreamCommand,
  DynamoDBStreamsClient,
  GetRecordsCommand,
  type GetRecordsCommandOutput,
  GetShardIteratorCommand,
  type _Record as StreamRecord,
} from '@aws-sdk/client-dynamodb-streams';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * DynamoDB Local's stream of a table, read as Lambda's event source mapping
 * reads the deployed one (docs/development.md#the-tables-stream-on-one-machine):
 * every shard polled, records handed to each consumer in batches of one
 * shard, in order, with the shard's id (as a tumbling window gives it), the
 * same handler code that runs on AWS. A batch whose handler throws is handed
 * over again, from the same record, until it succeeds: as on AWS, a
 * consumer must count a redelivered batch once. Each consumer reads on its
 * own (one event source mapping each), and where it got to in each shard is
 * kept in a file, so `npm start` stopped and started again goes on where it
 * left off.
 */

/** The event a consumer's handler gets: Lambda's DynamoDB stream event, with the shard a tumbling window names. */
export type LocalStreamEvent = DynamoDBStreamEvent & { shardId: string; state: Record<string, never> };

export interface StreamConsumer {
  name: string;
  /** Which records it gets: its event source mapping's filter on AWS. */
  accepts(record: DynamoDBRecord): boolean;
  handle(event: LocalStreamEvent): Promise<unknown>;
}

export interface StreamPollerOptions {
  client: DynamoDBClient;
  /** The streams API's endpoint and client settings (DynamoDB Local serves both APIs on one port). */
  endpoint: string;
  tableName: string;
  consumers: readonly StreamConsumer[];
  /** How often each shard is read (Lambda's batching window: 1 s in the stack). */
  pollMs?: number;
  /** Where each consumer's place in each shard is kept; none: start from the oldest record kept. */
  checkpointFile?: string;
  /** The streams client to read with (tests wrap faults around a real one); by default one for `endpoint`. */
  streams?: DynamoDBStreamsClient;
  /** A batch failed: what to tell the console. */
  onError?: (consumer: string, error: unknown) => void;
}

export interface StreamPoller {
  /** Resolves once every record written before the call has been handed to every consumer that accepts it, successfully. */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** Records handed over and batches failed, per consumer. */
  stats(): Record<string, { records: number; batches: number; failures: number }>;
}

interface ShardPlace {
  iterator?: string;
  /** The last record handed over (successfully). */
  after?: string;
  closed: boolean;
}

type Checkpoints = Record<string, { streamArn: string; shards: Record<string, string> }>;

/** Records per GetRecords call: the API's most. */
const RECORDS_PER_CALL = 1000;
/** Records per batch at most: the tally's event source mapping's batch size (lib/tally.ts). */
const BATCH_SIZE = 1000;
/** The streams API's refusals of an iterator that its shard's place can replace. */
const STALE_ITERATOR = new Set(['ExpiredIteratorException', 'TrimmedDataAccessException']);
/** A failed batch is tried again after this long, doubling up to RETRY_MAX_MS. */
const RETRY_MS = 200;
const RETRY_MAX_MS = 5000;

/** A record of the streams API as Lambda's event carries it (ApproximateCreationDateTime in epoch seconds). */
function lambdaRecord(record: StreamRecord, streamArn: string): DynamoDBRecord {
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

function readCheckpoints(file: string | undefined): Checkpoints {
  if (!file || !existsSync(file)) return {};
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Checkpoints;
  } catch {
    return {};
  }
}

export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const described = await options.client.send(new DescribeTableCommand({ TableName: options.tableName }));
  const latest = described.Table?.LatestStreamArn;
  if (!latest) throw new Error(`table "${options.tableName}" has no stream: its consumers cannot run`);
  const streamArn: string = latest;
  const streams =
    options.streams ??
    new DynamoDBStreamsClient({
      endpoint: options.endpoint,
      region: 'us-east-1',
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
  const pollMs = options.pollMs ?? 1000;
  const saved = readCheckpoints(options.checkpointFile);
  const places = new Map<string, Map<string, ShardPlace>>();
  const counts: Record<string, { records: number; batches: number; failures: number }> = {};
  for (const consumer of options.consumers) {
    const checkpoint = saved[consumer.name];
    const shards = new Map<string, ShardPlace>();
    if (checkpoint?.streamArn === streamArn) for (const [shardId, after] of Object.entries(checkpoint.shards)) shards.set(shardId, { after, closed: false });
    places.set(consumer.name, shards);
    counts[consumer.name] = { records: 0, batches: 0, failures: 0 };
  }

  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let retryMs = 0;
  /** Drains waiting for a pass that starts after they were asked and finds nothing more. */
  let waiting: { resolve: () => void; startedAfter: number }[] = [];
  let passes = 0;

  const saveCheckpoints = () => {
    if (!options.checkpointFile) return;
    const data: Checkpoints = {};
    for (const [name, shards] of places) {
      data[name] = { streamArn, shards: Object.fromEntries([...shards].flatMap(([id, place]) => (place.after ? [[id, place.after]] : []))) };
    }
    writeFileSync(options.checkpointFile, JSON.stringify(data));
  };

  async function iteratorFor(shardId: string, place: ShardPlace): Promise<string | undefined> {
    const found = await streams.send(
      new GetShardIteratorCommand({
        StreamArn: streamArn,
        ShardId: shardId,
        ...(place.after ? { ShardIteratorType: 'AFTER_SEQUENCE_NUMBER', SequenceNumber: place.after } : { ShardIteratorType: 'TRIM_HORIZON' }),
      }),
    );
    return found.ShardIterator;
  }

  /**
   * One consumer, one shard: every record there is now, in batches of up
   * to BATCH_SIZE, as Lambda's batching window gathers them (what came in
   * since the last pass goes as one batch; a backlog as full batches back to
   * back). Its place moves on only when the consumer took the batch.
   * Answers whether it failed.
   */
  async function readShard(consumer: StreamConsumer, shardId: string, place: ShardPlace): Promise<boolean> {
    for (;;) {
      const gathered: DynamoDBRecord[] = [];
      let iterator = place.iterator ?? (await iteratorFor(shardId, place));
      let after = place.after;
      let ended = false;
      while (iterator && gathered.length < BATCH_SIZE) {
        let page: GetRecordsCommandOutput;
        try {
          page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: Math.min(RECORDS_PER_CALL, BATCH_SIZE - gathered.length) }));
        } catch (error) {
          // An iterator kept from an earlier pass can be refused: expired after 15 minutes, or, by DynamoDB Local,
          // called trimmed when its shard had no record yet (seen in the bundled-asset tests). The shard's place
          // says where to start again, so a new iterator from it reads nothing twice and skips nothing.
          if (iterator === place.iterator && STALE_ITERATOR.has((error as Error).name)) {
            place.iterator = undefined;
            iterator = await iteratorFor(shardId, place);
            continue;
          }
          throw error;
        }
        const records = (page.Records ?? []).map((record) => lambdaRecord(record, streamArn));
        gathered.push(...records);
        after = records[records.length - 1]?.dynamodb?.SequenceNumber ?? after;
        iterator = page.NextShardIterator;
        if (records.length === 0) {
          ended = true;
          break;
        }
      }
      const accepted = gathered.filter((record) => consumer.accepts(record));
      if (accepted.length > 0) {
        try {
          await consumer.handle({ Records: accepted, shardId, state: {} });
        } catch (error) {
          counts[consumer.name]!.failures += 1;
          options.onError?.(consumer.name, error);
          // From the first record of this batch again, next time.
          place.iterator = undefined;
          return true;
        }
        counts[consumer.name]!.records += accepted.length;
        counts[consumer.name]!.batches += 1;
      }
      place.after = after;
      place.iterator = iterator;
      if (!iterator) {
        place.closed = true;
        return false;
      }
      if (ended) return false;
    }
  }

  async function pass(): Promise<void> {
    const started = ++passes;
    const stream = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
    let failed = false;
    for (const consumer of options.consumers) {
      const shards = places.get(consumer.name) as Map<string, ShardPlace>;
      for (const shard of stream.StreamDescription?.Shards ?? []) {
        const shardId = shard.ShardId;
        if (!shardId) continue;
        if (!shards.has(shardId)) shards.set(shardId, { closed: false });
        const place = shards.get(shardId) as ShardPlace;
        if (place.closed) continue;
        try {
          if (await readShard(consumer, shardId, place)) failed = true;
        } catch (error) {
          // The streams API itself failed (an iterator too old, DynamoDB Local restarting): start the shard again from its place.
          place.iterator = undefined;
          failed = true;
          options.onError?.(consumer.name, error);
        }
      }
    }
    saveCheckpoints();
    retryMs = failed ? Math.min(RETRY_MAX_MS, Math.max(RETRY_MS, retryMs * 2)) : 0;
    if (!failed) {
      const done = waiting.filter((drain) => drain.startedAfter < started);
      waiting = waiting.filter((drain) => drain.startedAfter >= started);
      for (const drain of done) drain.resolve();
    }
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = pass()
        .catch((error: unknown) => {
          retryMs = Math.min(RETRY_MAX_MS, Math.max(RETRY_MS, retryMs * 2));
          options.onError?.('stream', error);
        })
        .finally(() => {
          running = undefined;
          // A drain waiting goes on at once (after a failure, after the pause).
          schedule(retryMs || (waiting.length > 0 ? 0 : pollMs));
        });
    }, delayMs);
    timer.unref();
  }
  schedule(0);

  return {
    drain(timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const entry = { resolve: () => (clearTimeout(expiry), resolve()), startedAfter: passes };
        const expiry = setTimeout(() => {
          waiting = waiting.filter((drain) => drain !== entry);
          reject(new Error(`the stream's consumers did not catch up within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.push(entry);
        // Now rather than at the next tick of the clock, unless a pass is running (the next starts right after it).
        if (!running) schedule(0);
      });
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      streams.destroy();
    },
    stats: () => structuredClone(counts),
  };
}
