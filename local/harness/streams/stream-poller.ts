import { DescribeTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DescribeStreamCommand, DynamoDBStreamsClient } from '@aws-sdk/client-dynamodb-streams';
import { appendFileSync } from 'node:fs';
import { STREAM_FAILURES, type StreamFailurePolicy } from '../../../lib/stream-failures';
import { saveCheckpoints, startingPlaces, type Places, type ShardPlace } from './checkpoints';
import { ShardReader, type ConsumerCounts, type GivenUpBatch } from './shard-reader';
import type { StreamConsumer } from './stream-consumer';

/**
 * DynamoDB Local's stream of a table, read as Lambda's event source mapping
 * reads the deployed one (docs/development.md#the-tables-stream-on-one-machine):
 * every shard polled, records handed to each consumer in batches of one
 * shard, in order, with the shard's id (as a tumbling window gives it), the
 * same handler code that runs on AWS (shard-reader.ts). A batch whose
 * handler throws is handed over again from the same record, split down to
 * the record that fails, which is tried a few times and then given up, as
 * the stack's event source mappings do (lib/stream-failures.ts): as on AWS,
 * a consumer must count a redelivered batch once. Each
 * consumer reads on its own (one event source mapping each), and where it
 * got to in each shard is kept in a file (checkpoints.ts), so `npm start`
 * stopped and started again goes on where it left off.
 */

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
  /** What to do with a batch that keeps failing: the stack's (lib/stream-failures.ts) unless a test says otherwise. */
  failures?: StreamFailurePolicy;
  /** A batch was given up on: what to tell the console. */
  onGiveUp?: (batch: GivenUpBatch) => void;
  /** Where each batch given up on is kept, one JSON line each (`npm start`: beside the data), as a failure queue keeps them on AWS. */
  failuresFile?: string;
  /** The first pause after a failed pass (doubling up to RETRY_MAX_MS); the clock records' ages are read against. */
  retryMs?: number;
  now?: () => number;
}

export interface StreamPoller {
  /** Resolves once every record written before the call has been handed to every consumer that accepts it, successfully. */
  drain(timeoutMs?: number): Promise<void>;
  stop(): Promise<void>;
  /** Records handed over, batches failed and records given up, per consumer. */
  stats(): Record<string, ConsumerCounts>;
}

/** A failed pass is tried again after this long (by default), doubling up to RETRY_MAX_MS. */
const RETRY_MS = 200;
const RETRY_MAX_MS = 5000;

/** The table's stream, or an error saying its consumers cannot run. */
async function streamOf(client: DynamoDBClient, tableName: string): Promise<string> {
  const described = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const latest = described.Table?.LatestStreamArn;
  if (!latest) throw new Error(`table "${tableName}" has no stream: its consumers cannot run`);
  return latest;
}

/** A streams client for DynamoDB Local (any credentials, any region). */
const localStreams = (endpoint: string) =>
  new DynamoDBStreamsClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });

/** Everything one pass reads with: the reader, each consumer's places and counts. */
interface PassContext {
  streams: DynamoDBStreamsClient;
  streamArn: string;
  reader: ShardReader;
  consumers: readonly StreamConsumer[];
  places: Places;
  counts: Record<string, ConsumerCounts>;
  checkpointFile?: string;
  onError?: (consumer: string, error: unknown) => void;
}

/**
 * One pass: every consumer through every shard the stream has now (a new
 * shard read from its start), then the places kept. Answers whether any
 * batch failed; throws when the stream itself cannot be described.
 */
async function pass(context: PassContext): Promise<boolean> {
  const stream = await context.streams.send(new DescribeStreamCommand({ StreamArn: context.streamArn }));
  let failed = false;
  for (const consumer of context.consumers) {
    const shards = context.places.get(consumer.name) as Map<string, ShardPlace>;
    for (const shardId of (stream.StreamDescription?.Shards ?? []).flatMap((shard) => (shard.ShardId ? [shard.ShardId] : []))) {
      if (!shards.has(shardId)) shards.set(shardId, { closed: false });
      const place = shards.get(shardId) as ShardPlace;
      if (place.closed) continue;
      try {
        if (await context.reader.readShard(consumer, shardId, place, context.counts[consumer.name] as ConsumerCounts)) failed = true;
      } catch (error) {
        // The streams API itself failed (an iterator too old, DynamoDB Local restarting): start the shard again from its place.
        place.iterator = undefined;
        failed = true;
        context.onError?.(consumer.name, error);
      }
    }
  }
  saveCheckpoints(context.checkpointFile, context.places, context.streamArn);
  return failed;
}

/** Runs passes: one every `pollMs`, sooner for a drain, later (backing off) after a failure. */
interface PassLoop {
  drain(timeoutMs: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The loop of passes. A drain waits for a pass that starts after it was
 * asked and fails nothing; while one waits, the next pass starts at once.
 */
function passLoop(runPass: () => Promise<boolean>, pollMs: number, retryFirstMs: number, onError?: (consumer: string, error: unknown) => void): PassLoop {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let retryMs = 0;
  let passes = 0;
  let waiting: { resolve: () => void; startedAfter: number }[] = [];
  const backOff = () => Math.min(RETRY_MAX_MS, Math.max(retryFirstMs, retryMs * 2));

  async function once(): Promise<void> {
    const started = ++passes;
    const failed = await runPass();
    retryMs = failed ? backOff() : 0;
    if (failed) return;
    const done = waiting.filter((drain) => drain.startedAfter < started);
    waiting = waiting.filter((drain) => drain.startedAfter >= started);
    for (const drain of done) drain.resolve();
  }

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      running = once()
        .catch((error: unknown) => {
          retryMs = backOff();
          onError?.('stream', error);
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
    drain(timeoutMs) {
      return new Promise<void>((resolve, reject) => {
        const entry = {
          resolve: () => {
            clearTimeout(expiry);
            resolve();
          },
          startedAfter: passes,
        };
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
    },
  };
}

/** Starts reading the table's stream for its consumers, from where each left off (checkpointFile) or from the oldest record kept. */
export async function startStreamPoller(options: StreamPollerOptions): Promise<StreamPoller> {
  const streamArn = await streamOf(options.client, options.tableName);
  const streams = options.streams ?? localStreams(options.endpoint);
  const names = options.consumers.map((consumer) => consumer.name);
  const counts = Object.fromEntries(names.map((name) => [name, { records: 0, batches: 0, failures: 0, givenUp: 0 }]));
  const onGiveUp = (batch: GivenUpBatch) => {
    if (options.failuresFile) appendFileSync(options.failuresFile, `${JSON.stringify(batch)}\n`);
    options.onGiveUp?.(batch);
  };
  const context: PassContext = {
    streams,
    streamArn,
    reader: new ShardReader(streams, streamArn, {
      policy: options.failures ?? STREAM_FAILURES,
      now: options.now ?? Date.now,
      onError: options.onError,
      onGiveUp,
    }),
    consumers: options.consumers,
    places: startingPlaces(options.checkpointFile, names, streamArn),
    counts,
    checkpointFile: options.checkpointFile,
    onError: options.onError,
  };
  const loop = passLoop(() => pass(context), options.pollMs ?? 1000, options.retryMs ?? RETRY_MS, options.onError);
  return {
    drain: (timeoutMs = 30_000) => loop.drain(timeoutMs),
    async stop() {
      await loop.stop();
      streams.destroy();
    },
    stats: () => structuredClone(counts),
  };
}
