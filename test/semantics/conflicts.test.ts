import {
  BatchWriteItemCommand,
  GetItemCommand,
  PutItemCommand,
  TransactGetItemsCommand,
  TransactWriteItemsCommand,
  UpdateItemCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTestTable, directClient, failureOf, s, startTestProxy, type TestProxy } from '../support/semantics';

/**
 * Transaction conflicts as the service raises them and DynamoDB Local does
 * not (tools/semantics/holds.ts). Each overlap is made with a gate that holds
 * the first request just before the proxy forwards it.
 */
let proxy: TestProxy;
let client: DynamoDBClient;
let direct: DynamoDBClient;
let table: string;

beforeAll(async () => {
  table = await createTestTable('conflicts');
  direct = directClient();
});
beforeEach(async () => {
  proxy = await startTestProxy();
  client = proxy.client();
});
afterEach(() => proxy.close());
afterAll(() => direct.destroy());

const put = (pk: string, extra: Record<string, string> = {}) => ({
  Put: { TableName: table, Item: { pk: s(pk), ...Object.fromEntries(Object.entries(extra).map(([name, value]) => [name, s(value)])) } },
});
const update = (pk: string, value: string) => ({
  Update: { TableName: table, Key: { pk: s(pk) }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': s(value) } },
});
const stored = async (pk: string) => (await direct.send(new GetItemCommand({ TableName: table, Key: { pk: s(pk) }, ConsistentRead: true }))).Item;
const firstOf = (operation: string) => (request: { operation: string }) => request.operation === operation;
const id = (label: string) => `${label}-${Math.random().toString(36).slice(2)}`;

test('a TransactWriteItems overlapping another on one item is cancelled: TransactionConflict on that item, None on the others, and none of its items written', async () => {
  const [shared, mine, other1, other2] = [id('shared'), id('mine'), id('other'), id('other')];
  const gate = proxy.gate(firstOf('TransactWriteItems'));
  const first = client.send(new TransactWriteItemsCommand({ TransactItems: [put(shared, { v: 'first' }), put(mine)] }));
  await gate.reached;

  const second = await failureOf(client.send(new TransactWriteItemsCommand({ TransactItems: [put(other1), update(shared, 'second'), put(other2)] })));
  gate.release();
  await first;

  expect(second.name).toBe('TransactionCanceledException');
  expect(second.codes).toEqual(['None', 'TransactionConflict', 'None']);
  expect(second.error.message).toBe('Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict, None]');
  expect(await stored(other1)).toBeUndefined();
  expect(await stored(other2)).toBeUndefined();
  expect((await stored(shared))?.v).toEqual(s('first'));
});

test('a PutItem of an item a transaction holds fails with TransactionConflictException and is not applied', async () => {
  const item = id('held');
  const gate = proxy.gate(firstOf('TransactWriteItems'));
  const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [put(item, { v: 'transaction' })] }));
  await gate.reached;

  const plain = await failureOf(client.send(new PutItemCommand({ TableName: table, Item: { pk: s(item), v: s('plain') } })));
  gate.release();
  await transaction;

  expect(plain.name).toBe('TransactionConflictException');
  expect((await stored(item))?.v).toEqual(s('transaction'));
});

test('a TransactWriteItems with an item a plain write has in flight is cancelled with TransactionConflict on it', async () => {
  const [busy, free] = [id('busy'), id('free')];
  const gate = proxy.gate(firstOf('UpdateItem'));
  const plain = client.send(
    new UpdateItemCommand({ TableName: table, Key: { pk: s(busy) }, UpdateExpression: 'SET v = :v', ExpressionAttributeValues: { ':v': s('plain') } }),
  );
  await gate.reached;

  const transaction = await failureOf(client.send(new TransactWriteItemsCommand({ TransactItems: [put(free), update(busy, 'transaction')] })));
  gate.release();
  await plain;

  expect(transaction.codes).toEqual(['None', 'TransactionConflict']);
  expect(await stored(free)).toBeUndefined();
  expect((await stored(busy))?.v).toEqual(s('plain'));
});

test('a TransactGetItems of an item being written is cancelled with TransactionConflict on it', async () => {
  const [busy, quiet] = [id('busy'), id('quiet')];
  const gate = proxy.gate(firstOf('PutItem'));
  const plain = client.send(new PutItemCommand({ TableName: table, Item: { pk: s(busy) } }));
  await gate.reached;

  const read = await failureOf(
    client.send(
      new TransactGetItemsCommand({
        TransactItems: [{ Get: { TableName: table, Key: { pk: s(quiet) } } }, { Get: { TableName: table, Key: { pk: s(busy) } } }],
      }),
    ),
  );
  gate.release();
  await plain;

  expect(read.name).toBe('TransactionCanceledException');
  expect(read.codes).toEqual(['None', 'TransactionConflict']);
});

test('a BatchWriteItem request on an item a transaction holds comes back in UnprocessedItems; the others are applied', async () => {
  const [held, free] = [id('held'), id('free')];
  const gate = proxy.gate(firstOf('TransactWriteItems'));
  const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [put(held, { v: 'transaction' })] }));
  await gate.reached;

  const batch = await client.send(
    new BatchWriteItemCommand({
      RequestItems: { [table]: [{ PutRequest: { Item: { pk: s(held), v: s('batch') } } }, { PutRequest: { Item: { pk: s(free) } } }] },
    }),
  );
  gate.release();
  await transaction;

  expect(batch.UnprocessedItems?.[table]?.map((request) => request.PutRequest?.Item?.pk?.S)).toEqual([held]);
  expect((await stored(held))?.v).toEqual(s('transaction'));
  expect(await stored(free)).toBeDefined();
});

test('a transaction lets go of its items once answered: the next write of them succeeds and nothing stays held', async () => {
  const item = id('released');
  await client.send(new TransactWriteItemsCommand({ TransactItems: [put(item, { v: 'transaction' })] }));

  await client.send(new PutItemCommand({ TableName: table, Item: { pk: s(item), v: s('after') } }));

  expect((await stored(item))?.v).toEqual(s('after'));
  expect(proxy.heldItems()).toBe(0);
});

test('a transaction keeps its items for the hold after DynamoDB Local answered, and its caller waits that long', async () => {
  await proxy.close();
  proxy = await startTestProxy({ holdMs: 5000 });
  client = proxy.client();
  const item = id('commit-window');
  let answered = false;
  const transaction = client.send(new TransactWriteItemsCommand({ TransactItems: [put(item)] })).finally(() => (answered = true));
  // DynamoDB Local has applied it; the transaction is in its commit window.
  while (!(await stored(item))) await new Promise((resolve) => setTimeout(resolve, 20));

  const plain = await failureOf(client.send(new PutItemCommand({ TableName: table, Item: { pk: s(item) } })));

  expect(answered).toBe(false);
  expect(plain.name).toBe('TransactionConflictException');
  await transaction;
});

test('with conflicts off, overlapping transactions on one item both commit, one after the other', async () => {
  await proxy.close();
  proxy = await startTestProxy({ conflicts: false });
  client = proxy.client();
  const item = id('no-conflicts');
  const gate = proxy.gate(firstOf('TransactWriteItems'));
  const first = client.send(new TransactWriteItemsCommand({ TransactItems: [put(item, { v: 'first' })] }));
  await gate.reached;

  const second = client.send(new TransactWriteItemsCommand({ TransactItems: [update(item, 'second')] }));
  gate.release();
  await Promise.all([first, second]);

  expect((await stored(item))?.v).toEqual(s('second'));
  expect(proxy.stats().matched.conflicts).toBe(0);
});

test('the conflicts are counted on the partition of each conflicting item', async () => {
  const item = id('counted');
  const gate = proxy.gate(firstOf('TransactWriteItems'));
  const first = client.send(new TransactWriteItemsCommand({ TransactItems: [put(item)] }));
  await gate.reached;
  await failureOf(client.send(new PutItemCommand({ TableName: table, Item: { pk: s(item) } })));
  await failureOf(client.send(new TransactWriteItemsCommand({ TransactItems: [put(item)] })));
  gate.release();
  await first;

  const stats = proxy.stats({ table, prefix: item });
  expect(stats.partitions).toEqual([expect.objectContaining({ key: item, conflicts: 2, writes: 1 })]);
  expect(stats.operations.PutItem).toEqual({ requests: 1, throttled: 0, conflicted: 1 });
  expect(stats.operations.TransactWriteItems).toEqual({ requests: 2, throttled: 0, conflicted: 1 });
});
