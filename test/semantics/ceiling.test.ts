import {
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTestTable, directClient, failureOf, s, startTestProxy, type TestProxy } from '../support/semantics';

/**
 * The write ceiling per partition key value, of the table and of each index
 * (tools/semantics/buckets.ts), and what a write costs (cost-model.ts). The
 * proxy's clock is frozen: a bucket refills only when a test advances it.
 */
let proxy: TestProxy;
let client: DynamoDBClient;
let direct: DynamoDBClient;
let table: string;

beforeAll(async () => {
  // pk + sk, so that several items share a partition key; byG indexes `g` (keys only), byP includes `p`.
  table = await createTestTable('ceiling', {
    sortKey: true,
    indexes: [
      { name: 'byG', partitionKey: 'g' },
      { name: 'byP', partitionKey: 'h', projection: ['p'] },
    ],
  });
  direct = directClient();
});
beforeEach(async () => {
  proxy = await startTestProxy({ ceiling: 3 });
  client = proxy.client();
});
afterEach(() => proxy.close());
afterAll(() => direct.destroy());

const unique = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;
const item = (pk: string, sk: string, extra: Record<string, string> = {}) => ({
  pk: s(pk),
  sk: s(sk),
  ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [name, s(value)])),
});
const putItem = (pk: string, sk: string, extra: Record<string, string> = {}) =>
  client.send(new PutItemCommand({ TableName: table, Item: item(pk, sk, extra) }));
const stored = async (pk: string, sk: string) =>
  (await direct.send(new GetItemCommand({ TableName: table, Key: { pk: s(pk), sk: s(sk) }, ConsistentRead: true }))).Item;
/** The write units one partition was charged. */
const unitsOf = (key: string, index = '') => proxy.stats({ table, index, prefix: key }).partitions.find((partition) => partition.key === key)?.units ?? 0;

test('a partition key over its ceiling refuses the next write with ProvisionedThroughputExceededException and applies nothing, while another key in the same second writes', async () => {
  const [hot, cool] = [unique('hot'), unique('cool')];
  for (const sk of ['1', '2', '3']) await putItem(hot, sk);

  const refused = await failureOf(putItem(hot, '4'));
  await putItem(cool, '1');

  expect(refused.name).toBe('ProvisionedThroughputExceededException');
  expect(refused.error.ThrottlingReasons).toEqual([
    { reason: 'TableWriteKeyRangeThroughputExceeded', resource: expect.stringMatching(new RegExp(`:table/${table}$`)) },
  ]);
  expect(await stored(hot, '4')).toBeUndefined();
  expect(await stored(cool, '1')).toBeDefined();
  expect(proxy.stats({ table, index: '', prefix: hot }).partitions).toEqual([expect.objectContaining({ key: hot, writes: 3, units: 3, throttles: 1 })]);
});

test('a partition over its ceiling admits writes again once it has refilled', async () => {
  const hot = unique('refill');
  for (const sk of ['1', '2', '3']) await putItem(hot, sk);
  expect((await failureOf(putItem(hot, '4'))).name).toBe('ProvisionedThroughputExceededException');

  proxy.advance(400);

  await putItem(hot, '4');
  expect(await stored(hot, '4')).toBeDefined();
});

test('an index partition over its ceiling throttles the table write that feeds it, and nothing of that write is applied', async () => {
  const [crowded, quiet] = [unique('crowded'), unique('quiet')];
  for (const n of ['1', '2', '3']) await putItem(unique('item'), n, { g: crowded });

  const item4 = unique('item');
  const refused = await failureOf(putItem(item4, '4', { g: crowded }));
  await putItem(unique('item'), '5', { g: quiet });

  expect(refused.name).toBe('ProvisionedThroughputExceededException');
  expect(refused.error.ThrottlingReasons).toEqual([{ reason: 'IndexWriteKeyRangeThroughputExceeded', resource: expect.stringMatching(/\/index\/byG$/) }]);
  expect(await stored(item4, '4')).toBeUndefined();
  expect(proxy.stats({ table, index: 'byG', prefix: crowded }).matched).toEqual({ writes: 3, units: 3, throttles: 1, conflicts: 0 });
});

test('an update that would move an item into a full index partition is throttled by it before it runs', async () => {
  const [crowded, elsewhere, mover] = [unique('crowded'), unique('elsewhere'), unique('mover')];
  await putItem(mover, '1', { g: elsewhere });
  for (const n of ['1', '2', '3']) await putItem(unique('item'), n, { g: crowded });

  const refused = await failureOf(
    client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: s(mover), sk: s('1') },
        UpdateExpression: 'SET #g = :g',
        ExpressionAttributeNames: { '#g': 'g' },
        ExpressionAttributeValues: { ':g': s(crowded) },
      }),
    ),
  );

  expect(refused.name).toBe('ProvisionedThroughputExceededException');
  expect((await stored(mover, '1'))?.g).toEqual(s(elsewhere));
});

test('a transaction over the ceiling is cancelled with ThrottlingError on the throttled action and None on the others, and none of it is applied', async () => {
  const [hot, cool] = [unique('hot'), unique('cool')];
  // A transaction costs 2 units an item: two transactional writes take the ceiling of 3 below zero.
  await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: item(hot, '1') } }] }));
  await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: item(hot, '2') } }] }));

  const refused = await failureOf(
    client.send(
      new TransactWriteItemsCommand({
        TransactItems: [{ Put: { TableName: table, Item: item(cool, '1') } }, { Put: { TableName: table, Item: item(hot, '3') } }],
      }),
    ),
  );

  expect(refused.name).toBe('TransactionCanceledException');
  expect(refused.codes).toEqual(['None', 'ThrottlingError']);
  expect(await stored(cool, '1')).toBeUndefined();
  expect(await stored(hot, '3')).toBeUndefined();
});

test('a BatchWriteItem over the ceiling hands the throttled requests back in UnprocessedItems and applies the others', async () => {
  const [hot, cool] = [unique('hot'), unique('cool')];
  const requests = [...['1', '2', '3', '4', '5'].map((sk) => item(hot, sk)), item(cool, '1')].map((Item) => ({ PutRequest: { Item } }));

  const answer = await client.send(new BatchWriteItemCommand({ RequestItems: { [table]: requests } }));

  const handedBack = (answer.UnprocessedItems?.[table] ?? []).map((request) => request.PutRequest?.Item?.sk?.S);
  expect(handedBack).toEqual(['4', '5']);
  for (const sk of ['1', '2', '3']) expect(await stored(hot, sk)).toBeDefined();
  for (const sk of ['4', '5']) expect(await stored(hot, sk)).toBeUndefined();
  expect(await stored(cool, '1')).toBeDefined();
});

test('a BatchWriteItem whose every request is over the ceiling fails with ProvisionedThroughputExceededException', async () => {
  const hot = unique('hot');
  for (const sk of ['1', '2', '3']) await putItem(hot, sk);

  const refused = await failureOf(
    client.send(new BatchWriteItemCommand({ RequestItems: { [table]: [{ PutRequest: { Item: item(hot, '4') } }, { PutRequest: { Item: item(hot, '5') } }] } })),
  );

  expect(refused.name).toBe('ProvisionedThroughputExceededException');
  expect(await stored(hot, '4')).toBeUndefined();
});

test('with the ceiling off nothing is throttled, and the units are still counted', async () => {
  proxy.configure({ throttling: false });
  const hot = unique('unthrottled');
  for (const sk of ['1', '2', '3', '4', '5']) await putItem(hot, sk);

  expect(proxy.stats({ table, index: '', prefix: hot }).matched).toEqual({ writes: 5, units: 5, throttles: 0, conflicts: 0 });
});

describe('what a write costs', () => {
  beforeEach(() => proxy.configure({ ceiling: 1000 }));

  test('an item of 3 KB costs 3 write units, and 6 inside a transaction', async () => {
    const [plain, transactional] = [unique('plain'), unique('transactional')];
    // Names and values: pk, sk and `data` with a 3,000-byte value, so between 2 and 3 KB.
    const data = 'x'.repeat(3000);

    await putItem(plain, '1', { data });
    await client.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: item(transactional, '1', { data }) } }] }));

    expect(unitsOf(plain)).toBe(3);
    expect(unitsOf(transactional)).toBe(6);
  });

  test('an update costs the larger of the item before and after it', async () => {
    const key = unique('shrinks');
    await putItem(key, '1', { data: 'x'.repeat(3000) });
    proxy.reset();

    await client.send(
      new UpdateItemCommand({ TableName: table, Key: { pk: s(key), sk: s('1') }, UpdateExpression: 'REMOVE #d', ExpressionAttributeNames: { '#d': 'data' } }),
    );

    expect(unitsOf(key)).toBe(3);
  });

  test('an index entry whose key changes costs 2: its removal and its insertion', async () => {
    const [key, from, to] = [unique('moves'), unique('from'), unique('to')];
    await putItem(key, '1', { g: from });
    proxy.reset();

    await client.send(
      new UpdateItemCommand({ TableName: table, Key: { pk: s(key), sk: s('1') }, UpdateExpression: 'SET g = :g', ExpressionAttributeValues: { ':g': s(to) } }),
    );

    expect(unitsOf(from, 'byG') + unitsOf(to, 'byG')).toBe(2);
    expect([unitsOf(from, 'byG'), unitsOf(to, 'byG')]).toEqual([1, 1]);
  });

  test('a change of a projected attribute costs the index a write; a change of another attribute costs it nothing', async () => {
    const [key, h] = [unique('projected'), unique('h')];
    await putItem(key, '1', { h, p: 'one', q: 'one' });
    proxy.reset();

    await client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: s(key), sk: s('1') },
        UpdateExpression: 'SET q = :v',
        ExpressionAttributeValues: { ':v': s('two') },
      }),
    );
    expect(unitsOf(h, 'byP')).toBe(0);
    await client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: s(key), sk: s('1') },
        UpdateExpression: 'SET p = :v',
        ExpressionAttributeValues: { ':v': s('two') },
      }),
    );
    expect(unitsOf(h, 'byP')).toBe(1);
  });

  test('an update the proxy cannot evaluate (a nested path) is costed from the item read after it', async () => {
    const [key, h] = [unique('nested'), unique('h')];
    await client.send(new PutItemCommand({ TableName: table, Item: { ...item(key, '1', { h }), p: { M: { deep: s('one') } } } }));
    proxy.reset();

    await client.send(
      new UpdateItemCommand({
        TableName: table,
        Key: { pk: s(key), sk: s('1') },
        UpdateExpression: 'SET p.deep = :v',
        ExpressionAttributeValues: { ':v': s('two') },
      }),
    );

    expect(unitsOf(h, 'byP')).toBe(1);
    expect(proxy.stats({ table, index: 'byP' }).matched.writes).toBe(1);
  });

  test('a write whose condition fails costs the table a unit and the index nothing', async () => {
    const [key, g] = [unique('exists'), unique('g')];
    await putItem(key, '1', { g });
    proxy.reset();

    const refused = await failureOf(
      client.send(new PutItemCommand({ TableName: table, Item: item(key, '1', { g }), ConditionExpression: 'attribute_not_exists(pk)' })),
    );

    expect(refused.name).toBe('ConditionalCheckFailedException');
    expect(unitsOf(key)).toBe(1);
    expect(unitsOf(g, 'byG')).toBe(0);
  });
});
