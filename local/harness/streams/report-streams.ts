import { join } from 'node:path';
import { STREAM_FAILURES } from '../../../lib/stream-failures';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../../lambda/infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../../../lambda/infrastructure/store/schema';
import { reportStreamConsumers, type StreamHandler } from './consumers';
import type { StreamConsumer } from './stream-consumer';
import { startStreamPoller, type StreamPoller } from './stream-poller';

/** Set to `off` when another process already runs the consumers of the same store (the tests' own, beside an `npm start` on it). */
export const STREAMS_VARIABLE = 'CONTACTS_STREAMS';

/** The batches the consumers gave up on, one JSON line each, in the data folder. */
export const STREAM_FAILURES_FILE = 'stream-failures.jsonl';

/**
 * The consumers of the reports table's stream for a local process on
 * `endpoint` (`npm start`, the tests): the tally, and those given (the alert notifier: local/harness/alerts/local-alerts.ts)
 * (docs/development.md#the-tables-stream-on-one-machine). Where each got to is kept in
 * `dataDir` when given. Undefined when CONTACTS_STREAMS=off.
 */
export async function startReportStreams(options: {
  endpoint: string;
  dataDir?: string;
  say?: (line: string) => void;
  pollMs?: number;
  /** The tally's Lambda entry, when not the source's (`npm start -- --bundle`). */
  tally?: StreamHandler;
  /** More consumers of the same stream (the alert notifier: local/harness/alerts/local-alerts.ts). */
  consumers?: StreamConsumer[];
}): Promise<StreamPoller | undefined> {
  if (process.env[STREAMS_VARIABLE] === 'off') return undefined;
  const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: options.endpoint });
  const tables = tableNamesFromEnv();
  let lastSaid = 0;
  const poller = await startStreamPoller({
    client,
    // The streams API is served on DynamoDB Local's own port; a proxy in front of it that does not pass it on can be bypassed for reading the stream alone.
    endpoint: process.env.DYNAMODB_STREAMS_ENDPOINT || options.endpoint,
    tableName: tables.reports,
    consumers: [...reportStreamConsumers(documentClientOf(client), tables, { tally: options.tally }), ...(options.consumers ?? [])],
    pollMs: options.pollMs,
    checkpointFile: options.dataDir ? join(options.dataDir, 'stream-checkpoints.json') : undefined,
    // As a failure queue keeps them on AWS (lib/stream-failures.ts): where each batch given up on was, and why.
    failuresFile: options.dataDir ? join(options.dataDir, STREAM_FAILURES_FILE) : undefined,
    onGiveUp: (batch) => {
      const records =
        batch.batchSize === 1
          ? `record ${batch.startSequenceNumber}`
          : `${batch.batchSize} records (${batch.startSequenceNumber} to ${batch.endSequenceNumber})`;
      const why =
        batch.condition === 'RecordAgeExceeded'
          ? `failing and older than ${STREAM_FAILURES.maxRecordAgeSeconds / 60} minutes`
          : `failed ${STREAM_FAILURES.retryAttempts + 1} times`;
      const kept = options.dataDir ? `; its place is kept in ${join(options.dataDir, STREAM_FAILURES_FILE)}` : '';
      options.say?.(`stream consumer ${batch.consumer} gave up on ${records} of shard ${batch.shardId} (${why}: ${batch.error})${kept}`);
    },
    onError: (consumer, error) => {
      // At most one line a second: a store that is down fails every pass.
      if (Date.now() - lastSaid < 1000) return;
      lastSaid = Date.now();
      options.say?.(`stream consumer ${consumer} failed, will retry: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    },
  });
  return {
    ...poller,
    async stop() {
      await poller.stop();
      client.destroy();
    },
  };
}
