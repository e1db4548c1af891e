import { CreateTableCommand, DeleteTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, ExpiredIteratorException, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GivenUpBatch } from '../../local/harness/streams/shard-reader';
import { startStreamPoller, type StreamPoller } from '../../local/harness/streams/stream-poller';
import { createDynamoClient, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { until } from '../support/until';
import { endpoint } from '../support/local-api';

/**
 * The local stream reader on DynamoDB Local's own stream (local/harness/streams/stream-poller.ts):
 * a table of its own, so its one shard starts empty.
 */
const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: endpoint() });
const tableName = `poller-${randomUUID().slice(0, 8)}`;
let poller: StreamPoller | undefined;

beforeAll(async () => {
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
      StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' },
    }),
  );
});

afterAll(async () => {
  await poller?.stop();
  await client.send(new DeleteTableCommand({ TableName: tableName }));
  client.destroy();
});

/** A real streams client whose first GetRecords call after `arm()` fails with `fault`, once. */
function streamsFailingOnce(fault: () => Error): { streams: DynamoDBStreamsClient; arm(): void; failed(): number } {
  const streams = new DynamoDBStreamsClient({ endpoint: endpoint(), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  let armed = false;
  let failed = 0;
  streams.middlewareStack.add(
    (next, context) => async (args) => {
      if (armed && context.commandName === 'GetRecordsCommand') {
        armed = false;
        failed += 1;
        throw fault();
      }
      return next(args);
    },
    { step: 'initialize', name: 'failOnce' },
  );
  return { streams, arm: () => void (armed = true), failed: () => failed };
}

const refusals: [string, () => Error][] = [
  [
    'trimmed (as DynamoDB Local says of an iterator of a shard that was empty)',
    () => new TrimmedDataAccessException({ message: 'The operation attempted to read past the oldest stream record in a shard.', $metadata: {} }),
  ],
  ['expired', () => new ExpiredIteratorException({ message: 'Iterator expired', $metadata: {} })],
];

test.each(refusals)(
  "an iterator kept from an earlier pass and refused as %s is replaced from the shard's place: every record handed over once, no failure reported",
  async (_name, fault) => {
    const seen: string[] = [];
    const errors: unknown[] = [];
    const prefix = randomUUID().slice(0, 8);
    const ours = (pk: string | undefined) => pk?.startsWith(prefix) === true;
    const { streams, arm, failed } = streamsFailingOnce(fault);
    poller = await startStreamPoller({
      client,
      endpoint: endpoint(),
      streams,
      tableName,
      pollMs: 20,
      consumers: [
        {
          name: 'test',
          accepts: (record) => ours(record.dynamodb?.NewImage?.pk?.S),
          handle: async (event) => void seen.push(...event.Records.map((record) => record.dynamodb?.NewImage?.pk?.S ?? '')),
        },
      ],
      onError: (_consumer, error) => errors.push(error),
    });
    const write = async (pks: string[]) => {
      for (const pk of pks) await client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk } } }));
    };
    const first = Array.from({ length: 5 }, (_, i) => `${prefix}-a${i}`);
    const then = Array.from({ length: 5 }, (_, i) => `${prefix}-b${i}`);
    await write(first);
    await poller.drain(10_000);
    // Between passes the shard's iterator is kept; the next pass's first read (with it) is refused.
    arm();
    await until('the refused read', () => (failed() === 1 ? true : undefined));
    await write(then);
    await poller.drain(10_000);
    await poller.stop();
    poller = undefined;
    streams.destroy();
    expect(seen).toEqual([...first, ...then]);
    expect(errors).toEqual([]);
  },
);

/** A consumer of this file's records under `prefix` that fails every batch holding `poison`, and the records it took, in order. */
function poisoned(prefix: string, poison: string) {
  const taken: string[] = [];
  let poisonedAlone = 0;
  const pkOf = (record: { dynamodb?: { NewImage?: { pk?: { S?: string } } } }) => record.dynamodb?.NewImage?.pk?.S ?? '';
  return {
    taken,
    poisonedAlone: () => poisonedAlone,
    consumer: {
      name: 'poisoned',
      accepts: (record: Parameters<typeof pkOf>[0]) => pkOf(record).startsWith(prefix),
      handle: async (event: { Records: Parameters<typeof pkOf>[0][] }) => {
        const pks = event.Records.map(pkOf);
        if (pks.includes(poison)) {
          if (pks.length === 1) poisonedAlone += 1;
          throw Object.assign(new Error('cannot take this one'), { name: 'PoisonError' });
        }
        taken.push(...pks);
      },
    },
  };
}

test('a batch that always fails on one record is split down to it, the record tried 1 + 2 times and given up with its place (told and kept in the failures file); every other record is taken once, in order', async () => {
  const prefix = randomUUID().slice(0, 8);
  const pks = Array.from({ length: 9 }, (_, i) => `${prefix}-${i}`);
  const poison = pks[5] as string;
  const { taken, consumer, poisonedAlone } = poisoned(prefix, poison);
  const dir = mkdtempSync(join(tmpdir(), 'poller-failures-'));
  const failuresFile = join(dir, 'stream-failures.jsonl');
  const givenUp: GivenUpBatch[] = [];
  // Written before the poller starts: the first pass hands the nine over as one batch.
  for (const pk of pks) await client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk } } }));
  poller = await startStreamPoller({
    client,
    endpoint: endpoint(),
    tableName,
    pollMs: 20,
    retryMs: 5,
    failures: { bisect: true, retryAttempts: 2, maxRecordAgeSeconds: 3600 },
    failuresFile,
    onGiveUp: (batch) => givenUp.push(batch),
    consumers: [consumer],
  });
  try {
    await poller.drain(20_000);
    expect(taken).toEqual(pks.filter((pk) => pk !== poison));
    expect(poisonedAlone()).toBe(3);
    expect(givenUp).toEqual([
      expect.objectContaining({ consumer: 'poisoned', batchSize: 1, condition: 'RetryAttemptsExhausted', error: 'PoisonError: cannot take this one' }),
    ]);
    expect(givenUp[0]?.startSequenceNumber).toBe(givenUp[0]?.endSequenceNumber);
    expect(
      readFileSync(failuresFile, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(givenUp);
    expect(poller.stats().poisoned).toMatchObject({ records: 8, givenUp: 1 });
    // The records written after it are taken at once: nothing of the poison is left to hold the shard.
    const later = `${prefix}-later`;
    await client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: later } } }));
    await poller.drain(10_000);
    expect(taken.at(-1)).toBe(later);
  } finally {
    await poller.stop();
    poller = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a failing batch whose records are older than the age limit is given up at once, whole, without splits or tries', async () => {
  const prefix = randomUUID().slice(0, 8);
  const pks = [`${prefix}-a`, `${prefix}-poison`, `${prefix}-b`];
  const { taken, consumer, poisonedAlone } = poisoned(prefix, `${prefix}-poison`);
  const givenUp: GivenUpBatch[] = [];
  for (const pk of pks) await client.send(new PutItemCommand({ TableName: tableName, Item: { pk: { S: pk } } }));
  poller = await startStreamPoller({
    client,
    endpoint: endpoint(),
    tableName,
    pollMs: 20,
    retryMs: 5,
    // Read two hours later than written.
    now: () => Date.now() + 2 * 3_600_000,
    failures: { bisect: true, retryAttempts: 2, maxRecordAgeSeconds: 3600 },
    onGiveUp: (batch) => givenUp.push(batch),
    consumers: [consumer],
  });
  try {
    await poller.drain(20_000);
    expect(givenUp).toEqual([expect.objectContaining({ batchSize: 3, condition: 'RecordAgeExceeded' })]);
    expect(taken).toEqual([]);
    expect(poisonedAlone()).toBe(0);
  } finally {
    await poller.stop();
    poller = undefined;
  }
});
