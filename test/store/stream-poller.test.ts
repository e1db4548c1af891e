import { CreateTableCommand, DeleteTableCommand, PutItemCommand } from '@aws-sdk/client-dynamodb';
import { DynamoDBStreamsClient, ExpiredIteratorException, TrimmedDataAccessException } from '@aws-sdk/client-dynamodb-streams';
import { randomUUID } from 'node:crypto';
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
