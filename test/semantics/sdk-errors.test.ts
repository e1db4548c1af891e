import {
  ProvisionedThroughputExceededException,
  PutItemCommand,
  TransactionCanceledException,
  TransactionConflictException,
  TransactWriteItemsCommand,
  type DynamoDBClient,
} from '@aws-sdk/client-dynamodb';
import { createTestTable, failureOf, s, startTestProxy, type TestProxy } from '../support/semantics';

/**
 * What code written against the service sees: the AWS SDK v3 client with its
 * default retry strategy (3 attempts) parses the proxy's refusals into the
 * exception classes it parses AWS's into, retries the throttling and not the
 * cancelled transactions or conflicts (the caller decides those).
 */
let proxy: TestProxy;
let retrying: DynamoDBClient;
let table: string;

beforeAll(async () => {
  table = await createTestTable('sdk', { sortKey: true });
});
beforeEach(async () => {
  proxy = await startTestProxy({ ceiling: 1 });
  // The SDK's defaults: 3 attempts, standard retry strategy.
  retrying = proxy.client(3);
});
afterEach(() => proxy.close());

const key = () => `k-${Math.random().toString(36).slice(2)}`;
const put = (pk: string, sk: string) => new PutItemCommand({ TableName: table, Item: { pk: s(pk), sk: s(sk) } });

test('a throttled PutItem is a ProvisionedThroughputExceededException the SDK retries (3 attempts), each refused while the clock stands still', async () => {
  const hot = key();
  await retrying.send(put(hot, '1'));

  const refused = await failureOf(retrying.send(put(hot, '2')));

  expect(refused.error).toBeInstanceOf(ProvisionedThroughputExceededException);
  expect(refused.error.$fault).toBe('client');
  expect(refused.attempts).toBe(3);
  expect(proxy.stats().operations.PutItem).toEqual({ requests: 4, throttled: 3, conflicted: 0 });
});

test("a throttled PutItem succeeds on the SDK's retry once the partition has refilled", async () => {
  await proxy.close();
  // Time moves on (a second) exactly when the first refusal has been counted: the retry finds the partition refilled.
  const refusals = () => proxy.stats().operations.PutItem?.throttled ?? 0;
  proxy = await startTestProxy({ ceiling: 1, clock: () => (refusals() > 0 ? 2_000_000 : 1_000_000) });
  retrying = proxy.client(3);
  const hot = key();
  await retrying.send(put(hot, '1'));

  const answer = await retrying.send(put(hot, '2'));

  expect(answer.$metadata.attempts).toBe(2);
  expect(refusals()).toBe(1);
});

test('a TransactionCanceledException with ThrottlingError is not retried by the SDK', async () => {
  const hot = key();
  await retrying.send(put(hot, '1'));

  const refused = await failureOf(
    retrying.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: { pk: s(hot), sk: s('2') } } }] })),
  );

  expect(refused.error).toBeInstanceOf(TransactionCanceledException);
  expect(refused.error.CancellationReasons).toEqual([{ Code: 'ThrottlingError', Message: expect.stringContaining('Throughput exceeds') }]);
  expect(refused.attempts).toBe(1);
});

test('TransactionConflictException and a TransactionCanceledException for a conflict are not retried by the SDK', async () => {
  proxy.configure({ ceiling: 1000 });
  const item = key();
  const gate = proxy.gate((request) => request.operation === 'TransactWriteItems');
  const holding = retrying.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: { pk: s(item), sk: s('1') } } }] }));
  await gate.reached;

  const plain = await failureOf(retrying.send(put(item, '1')));
  const transaction = await failureOf(
    retrying.send(new TransactWriteItemsCommand({ TransactItems: [{ Put: { TableName: table, Item: { pk: s(item), sk: s('1') } } }] })),
  );
  gate.release();
  await holding;

  expect(plain.error).toBeInstanceOf(TransactionConflictException);
  expect(plain.attempts).toBe(1);
  expect(transaction.error).toBeInstanceOf(TransactionCanceledException);
  expect(transaction.codes).toEqual(['TransactionConflict']);
  expect(transaction.attempts).toBe(1);
});
