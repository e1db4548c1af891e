/**
 * npm run semantics:latency: what the proxy adds to each write. The same
 * sequential writes (PutItem, UpdateItem, a TransactWriteItems of two items)
 * on a table with an index, alternately straight to DynamoDB Local and through
 * the proxy (no ceiling reached, no conflicts: the cost of the bookkeeping
 * only, the transaction's hold set to 0), with the AWS SDK v3 client; prints
 * the median and p99 of each path and their difference.
 */
import { CreateTableCommand, DynamoDBClient, PutItemCommand, TransactWriteItemsCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../local/harness/cli';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/harness/dynamodb-local';
import { freePort } from '../../local/harness/ports';
import { quantile } from '../load/latency';
import { startSemanticsProxy } from './proxy';

const USAGE = `usage: npm run semantics:latency [-- --writes N] [--target URL]

Measures the latency the service-semantics proxy adds to a write: N writes of
each kind (PutItem, UpdateItem, TransactWriteItems of two items; default 1000),
alternately straight to DynamoDB Local and through the proxy, one at a time.
Starts its own DynamoDB Local (in memory) unless --target names one.`;

const client = (endpoint: string) =>
  new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts: 1 });

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { writes: { type: 'string' }, target: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const writes = positiveIntArg('--writes', values.writes, 1_000_000) ?? 1000;
  let dynamo: DynamoDbLocal | undefined;
  const target = values.target ?? (dynamo = await startDynamoDbLocal({ port: await freePort() })).endpoint;
  const proxy = await startSemanticsProxy({ target, holdMs: 0 });
  const direct = client(target);
  const proxied = client(proxy.endpoint);
  try {
    const table = `latency-${Date.now().toString(36)}`;
    await direct.send(
      new CreateTableCommand({
        TableName: table,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'g', AttributeType: 'S' },
        ],
        KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
        GlobalSecondaryIndexes: [{ IndexName: 'byG', KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }], Projection: { ProjectionType: 'KEYS_ONLY' } }],
      }),
    );
    const kinds = {
      PutItem: (pk: string) => new PutItemCommand({ TableName: table, Item: { pk: { S: pk }, g: { S: `g${pk.length % 7}` }, body: { S: 'x'.repeat(200) } } }),
      UpdateItem: (pk: string) =>
        new UpdateItemCommand({
          TableName: table,
          Key: { pk: { S: pk } },
          UpdateExpression: 'SET g = :g ADD n :one',
          ExpressionAttributeValues: { ':g': { S: 'moved' }, ':one': { N: '1' } },
        }),
      TransactWriteItems: (pk: string) =>
        new TransactWriteItemsCommand({
          TransactItems: [
            { Put: { TableName: table, Item: { pk: { S: `${pk}-t` }, g: { S: 'g' } } } },
            { Update: { TableName: table, Key: { pk: { S: pk } }, UpdateExpression: 'ADD n :one', ExpressionAttributeValues: { ':one': { N: '1' } } } },
          ],
        }),
    };
    // Warm both paths (connections, the JIT, the proxy's schema cache).
    for (let i = 0; i < 50; i++) for (const path of [direct, proxied]) await path.send(kinds.PutItem(`warm-${i}`));
    const rows: string[] = [
      `${'write'.padEnd(20)}${'direct p50'.padStart(12)}${'p99'.padStart(8)}${'proxy p50'.padStart(12)}${'p99'.padStart(8)}${'added p50'.padStart(12)}${'p99'.padStart(8)}`,
    ];
    for (const [kind, command] of Object.entries(kinds)) {
      const times = { direct: [] as number[], proxy: [] as number[] };
      for (let i = 0; i < writes; i++) {
        for (const [name, path] of [
          ['direct', direct],
          ['proxy', proxied],
        ] as const) {
          const started = performance.now();
          await path.send(command(`${name}-${i}`) as never);
          times[name].push(performance.now() - started);
        }
      }
      const [d50, d99, p50, p99] = [
        quantile(
          times.direct.sort((a, b) => a - b),
          0.5,
        ),
        quantile(times.direct, 0.99),
        quantile(
          times.proxy.sort((a, b) => a - b),
          0.5,
        ),
        quantile(times.proxy, 0.99),
      ];
      const ms = (value: number) => value.toFixed(2).padStart(8);
      rows.push(`${kind.padEnd(20)}${ms(d50).padStart(12)}${ms(d99)}${ms(p50).padStart(12)}${ms(p99)}${ms(p50 - d50).padStart(12)}${ms(p99 - d99)}`);
    }
    process.stdout.write(`${writes} writes of each kind, one at a time, milliseconds (DynamoDB Local at ${target})\n${rows.join('\n')}\n`);
  } finally {
    direct.destroy();
    proxied.destroy();
    await proxy.close();
    await dynamo?.stop();
  }
});
