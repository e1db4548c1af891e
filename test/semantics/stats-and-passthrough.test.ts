import { DescribeTableCommand, GetItemCommand, PutItemCommand, UpdateTableCommand, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { endpoint } from '../support/local-api';
import { createTestTable, s, startTestProxy, type TestProxy } from '../support/semantics';

/**
 * The proxy's counts over HTTP (what a benchmark in another process reads),
 * its settings, and what it forwards untouched.
 */
let proxy: TestProxy;
let client: DynamoDBClient;

beforeEach(async () => {
  proxy = await startTestProxy({ ceiling: 2 });
  client = proxy.client();
});
afterEach(() => proxy.close());

const control = async (method: string, path: string, body?: unknown) => {
  const answer = await fetch(`${proxy.endpoint}/__semantics/${path}`, { method, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
};

/** A raw DynamoDB API call, as any client would make it. */
const call = async (at: string, target: string, body: unknown) => {
  const answer = await fetch(at, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': target,
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: answer.status, body: (await answer.json()) as Record<string, any> };
};

describe('counts', () => {
  let table: string;
  beforeAll(async () => {
    table = await createTestTable('stats', { indexes: [{ name: 'byFeed', partitionKey: 'feed' }] });
  });

  const storeEvent = (factory: string, n: number) =>
    client.send(new PutItemCommand({ TableName: table, Item: { pk: s(`event#${factory}#${n}`), feed: s(`${factory}#events`) } }));

  test('GET /__semantics/stats counts per partition key, and prefix filters select the keys of one tenant in the table and its index', async () => {
    const [a, b] = [`fac_A${Date.now()}`, `fac_B${Date.now()}`];
    await storeEvent(a, 1);
    await storeEvent(b, 1);
    await storeEvent(b, 2);

    const { status, body } = await control('GET', `stats?table=${table}&prefix=${encodeURIComponent(`event#${b}`)}&prefix=${encodeURIComponent(`${b}#`)}`);

    expect(status).toBe(200);
    expect(body.partitions).toEqual([
      { table, index: 'byFeed', key: `${b}#events`, writes: 2, units: 2, throttles: 0, conflicts: 0 },
      { table, key: `event#${b}#1`, writes: 1, units: 1, throttles: 0, conflicts: 0 },
      { table, key: `event#${b}#2`, writes: 1, units: 1, throttles: 0, conflicts: 0 },
    ]);
    expect(body.matched).toEqual({ writes: 4, units: 4, throttles: 0, conflicts: 0 });
    expect(body.totals[table]).toEqual({ writes: 3, units: 3, throttles: 0, conflicts: 0 });
    expect(body.totals[`${table}/byFeed`]).toEqual({ writes: 3, units: 3, throttles: 0, conflicts: 0 });
    expect(body.operations.PutItem).toEqual({ requests: 3, throttled: 0, conflicted: 0 });
  });

  test('limit lists only the most charged partitions, and matched still sums all those selected; a limit that is not a number is a 400', async () => {
    const factory = `fac_L${Date.now()}`;
    await storeEvent(factory, 1);
    await storeEvent(factory, 2);

    const { body } = await control('GET', `stats?table=${table}&prefix=${encodeURIComponent(factory)}&prefix=event%23${factory}&limit=1`);

    expect(body.partitions).toEqual([expect.objectContaining({ index: 'byFeed', key: `${factory}#events`, units: 2 })]);
    expect(body.matched.units).toBe(4);
    expect(await control('GET', 'stats?limit=many')).toEqual({ status: 400, body: { error: 'limit must be a whole number, got "many"' } });
  });

  test('POST /__semantics/reset zeroes the counts and refills every partition', async () => {
    const factory = `fac_R${Date.now()}`;
    for (const n of [1, 2]) await storeEvent(factory, n);
    await expect(storeEvent(factory, 3)).rejects.toThrow('Throughput exceeds');

    expect(await control('POST', 'reset')).toEqual({ status: 200, body: { reset: true } });

    expect(proxy.stats().partitions).toEqual([]);
    await storeEvent(factory, 3);
  });
});

describe('settings', () => {
  test('GET and POST /__semantics/config read and change the settings', async () => {
    expect((await control('GET', 'config')).body).toEqual({ ceiling: 2, burstSeconds: 1, throttling: true, conflicts: true, holdMs: 0 });

    const changed = await control('POST', 'config', { ceiling: 20, conflicts: false });

    expect(changed).toEqual({ status: 200, body: { ceiling: 20, burstSeconds: 1, throttling: true, conflicts: false, holdMs: 0 } });
    expect(proxy.config().ceiling).toBe(20);
  });

  test('a setting that is not one, or not valid, is a 400 {"error"} naming it, and changes nothing', async () => {
    expect(await control('POST', 'config', { ceiling: -1 })).toEqual({
      status: 400,
      body: { error: expect.stringContaining('ceiling must be a positive number') },
    });
    expect(await control('POST', 'config', { speed: 3 })).toEqual({ status: 400, body: { error: expect.stringContaining('unknown setting speed') } });
    expect(proxy.config().ceiling).toBe(2);
  });

  test('an unknown /__semantics/ path is a 404 {"error"} listing what the proxy answers', async () => {
    expect(await control('GET', 'nothing')).toEqual({ status: 404, body: { error: expect.stringContaining('GET stats') } });
  });
});

describe('what passes through', () => {
  test('the streams API answers through the proxy as DynamoDB Local answers it', async () => {
    const table = await createTestTable('streams', { stream: true });
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: s('streamed') } }));

    const listed = await call(proxy.endpoint, 'DynamoDBStreams_20120810.ListStreams', { TableName: table });
    const described = await call(proxy.endpoint, 'DynamoDBStreams_20120810.DescribeStream', { StreamArn: listed.body.Streams?.[0]?.StreamArn });

    expect(listed).toEqual(await call(endpoint(), 'DynamoDBStreams_20120810.ListStreams', { TableName: table }));
    expect(described.status).toBe(200);
    expect(described.body.StreamDescription.TableName).toBe(table);
    expect(proxy.stats().operations['DynamoDBStreams_20120810.ListStreams']).toEqual({ requests: 1, throttled: 0, conflicted: 0 });
  });

  test('reads answer as from DynamoDB Local', async () => {
    const table = await createTestTable('reads');
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: s('read'), n: { N: '7' } } }));

    const read = await client.send(new GetItemCommand({ TableName: table, Key: { pk: s('read') } }));

    expect(read.Item).toEqual({ pk: s('read'), n: { N: '7' } });
  });

  test('a body the proxy cannot read is forwarded, and DynamoDB Local answers it as it answers it directly', async () => {
    const answer = await call(proxy.endpoint, 'DynamoDB_20120810.PutItem', '{not json');

    expect(answer).toEqual(await call(endpoint(), 'DynamoDB_20120810.PutItem', '{not json'));
  });

  test('an index added through the proxy with UpdateTable is costed from the next write on', async () => {
    const table = await createTestTable('grows');
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: s('before'), g: s('g1') } }));

    await client.send(
      new UpdateTableCommand({
        TableName: table,
        AttributeDefinitions: [{ AttributeName: 'g', AttributeType: 'S' }],
        GlobalSecondaryIndexUpdates: [
          { Create: { IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } } },
        ],
      }),
    );
    // As npm start does (local/harness/tables.ts): wait for the index to be built before writing.
    const active = async () => (await client.send(new DescribeTableCommand({ TableName: table }))).Table?.GlobalSecondaryIndexes?.[0]?.IndexStatus === 'ACTIVE';
    while (!(await active())) await new Promise((resolve) => setTimeout(resolve, 50));
    await client.send(new PutItemCommand({ TableName: table, Item: { pk: s('after'), g: s('g2') } }));

    expect(proxy.stats({ table, index: 'byG' }).partitions.map((partition) => partition.key)).toEqual(['g2']);
  });
});
