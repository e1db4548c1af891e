import { GetItemCommand, PutItemCommand, QueryCommand, UpdateItemCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTestTable, directClient, s, startTestProxy, type TestProxy } from '../support/semantics';

/**
 * The proxy under concurrent writes: admission takes each admitted write's
 * cost at once, so a burst at one partition is cut at its ceiling however
 * many writes are in flight; and writes of one item are costed from their
 * own before and after, however they interleave.
 */
let proxy: TestProxy;
let client: DynamoDBClient;
let direct: DynamoDBClient;
let table: string;

beforeAll(async () => {
  table = await createTestTable('concurrent', { sortKey: true, indexes: [{ name: 'byG', partitionKey: 'g' }] });
  direct = directClient();
});
afterAll(() => direct.destroy());
afterEach(() => proxy.close());

test('50 writes at once to one partition with a ceiling of 10: exactly 10 are applied, the others refused', async () => {
  proxy = await startTestProxy({ ceiling: 10 });
  client = proxy.client();
  const hot = `burst-${Date.now()}`;

  const outcomes = await Promise.allSettled(
    Array.from({ length: 50 }, (_, i) => client.send(new PutItemCommand({ TableName: table, Item: { pk: s(hot), sk: s(String(i)) } }))),
  );

  const stored = await direct.send(
    new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': s(hot) }, ConsistentRead: true }),
  );
  expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
  expect(stored.Count).toBe(10);
  expect(proxy.stats({ table, index: '', prefix: hot }).matched).toEqual({ writes: 10, units: 10, throttles: 40, conflicts: 0 });
});

test('30 updates at once moving one item through 30 index partitions: each is charged its own removal and insertion', async () => {
  proxy = await startTestProxy({ conflicts: false });
  client = proxy.client();
  const key = { pk: s(`mover-${Date.now()}`), sk: s('1') };
  await client.send(new PutItemCommand({ TableName: table, Item: { ...key, g: s('start') } }));
  proxy.reset();

  await Promise.all(
    Array.from({ length: 30 }, (_, i) =>
      client.send(
        new UpdateItemCommand({
          TableName: table,
          Key: key,
          UpdateExpression: 'SET g = :g ADD n :one',
          ExpressionAttributeValues: { ':g': s(`g${i}`), ':one': { N: '1' } },
        }),
      ),
    ),
  );

  const index = proxy.stats({ table, index: 'byG' });
  const last = (await direct.send(new GetItemCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item;
  expect(last?.n).toEqual({ N: '30' });
  // 30 removals (of `start` and of each entry but the last) and 30 insertions: each partition 2, `start` and the last 1.
  expect(index.matched).toEqual({ writes: 60, units: 60, throttles: 0, conflicts: 0 });
  for (const partition of index.partitions)
    expect([partition.key, partition.units]).toEqual([partition.key, ['start', last?.g?.S].includes(partition.key) ? 1 : 2]);
  expect(proxy.stats({ table, index: '' }).matched).toEqual({ writes: 30, units: 30, throttles: 0, conflicts: 0 });
});
