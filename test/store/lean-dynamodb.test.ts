import {
  BatchGetCommand as SdkBatchGet,
  DeleteCommand as SdkDelete,
  GetCommand as SdkGet,
  PutCommand as SdkPut,
  QueryCommand as SdkQuery,
  TransactWriteCommand as SdkTransactWrite,
  UpdateCommand as SdkUpdate,
} from '@aws-sdk/lib-dynamodb';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StorageThrottledError, StorageUnavailableError } from '../../lambda/kernel/errors';
import { DEFAULT_DYNAMO_CONFIG, dynamoClientOptions, type DynamoConfig } from '../../lambda/infrastructure/store/dynamo-client';
import { isConditionalCheckFailed, isTransientStorageError, itemOfFailure, storageCall } from '../../lambda/infrastructure/store/errors';
import { DynamoDBClient } from '../../lambda/infrastructure/store/lean-dynamodb/dynamodb-client';
import {
  BatchGetCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '../../lambda/infrastructure/store/lean-dynamodb/document-client';
import { endpoint, newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * The lean DynamoDB client the Lambda assets carry (lib/service-function.ts aliases the SDK's packages to it) against
 * the SDK's document client, on the run's DynamoDB Local: every command the stores send answers the same, and every
 * failure the stores tell apart (a refused condition and the item it returns, a cancelled transaction, a bad
 * request, throttling, a server error, a timeout) reaches them in the SDK's shape, retried as the SDK retries it.
 */

/**
 * The deployed configuration with patient timeouts: on a loaded machine DynamoDB Local may take seconds, and a timed-out
 * attempt retried (a conditional put that had been applied, a fault proxy's count of requests) is not what these tests read.
 */
const lean = (config: Partial<DynamoConfig> = {}) =>
  DynamoDBDocumentClient.from(
    new DynamoDBClient(
      dynamoClientOptions({ ...DEFAULT_DYNAMO_CONFIG, connectionTimeoutMs: 10_000, requestTimeoutMs: 30_000, endpoint: endpoint(), ...config }),
    ),
    {
      marshallOptions: { removeUndefinedValues: true },
    },
  );
const sdk = testDoc();

/** An output without its metadata (request ids and attempts differ by nature). */
const withoutMetadata = ({ $metadata: _metadata, ...rest }: Record<string, unknown>) => rest;

/** The error a call throws (fails the test when it does not). */
async function failureOf(call: Promise<unknown>): Promise<Error & Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    return error as Error & Record<string, unknown>;
  }
  throw new Error('the call succeeded');
}

const contacts = tables.contacts;
const reports = tables.reports;

/** The same commands from either package, and a client of it: what a test sends through both. */
const SDK_COMMANDS = { Put: SdkPut, Get: SdkGet, Update: SdkUpdate, Delete: SdkDelete, Query: SdkQuery, BatchGet: SdkBatchGet };
const LEAN_COMMANDS = { Put: PutCommand, Get: GetCommand, Update: UpdateCommand, Delete: DeleteCommand, Query: QueryCommand, BatchGet: BatchGetCommand };
type Commands = typeof SDK_COMMANDS;
interface Side {
  name: string;
  send: (command: unknown) => Promise<Record<string, unknown>>;
  commands: Commands;
}

describe('the lean client answers as the SDK document client does', () => {
  const client = lean();
  afterAll(() => client.destroy());
  const sides: Side[] = [
    { name: 'sdk', send: (command) => sdk.send(command as never) as Promise<Record<string, unknown>>, commands: SDK_COMMANDS },
    { name: 'lean', send: (command) => client.send(command as never), commands: LEAN_COMMANDS as unknown as Commands },
  ];

  test('PutItem, GetItem, UpdateItem (ALL_NEW) and DeleteItem (ALL_OLD) return the same items', async () => {
    const answers = await Promise.all(
      sides.map(async ({ name, send, commands: { Put, Get, Update, Delete } }) => {
        const pk = `lean#${name}#${newFactoryId()}`;
        const item = {
          pk,
          text: 'ünïcode',
          n: 42,
          list: ['a', 1, { deep: true }],
          bytes: new Uint8Array([1, 2, 3]),
          tags: new Set(['x', 'y']),
          gone: undefined,
        };
        await send(new Put({ TableName: reports, Item: item, ConditionExpression: 'attribute_not_exists(pk)' }));
        const got = await send(new Get({ TableName: reports, Key: { pk }, ConsistentRead: true }));
        const updated = await send(
          new Update({
            TableName: reports,
            Key: { pk },
            UpdateExpression: 'SET n = n + :one, #t = :t',
            ExpressionAttributeNames: { '#t': 'text' },
            ExpressionAttributeValues: { ':one': 1, ':t': 'changed' },
            ReturnValues: 'ALL_NEW',
          }),
        );
        const deleted = await send(new Delete({ TableName: reports, Key: { pk }, ReturnValues: 'ALL_OLD' }));
        const fields = (found: unknown) => {
          const { pk: _pk, ...rest } = (found ?? {}) as Record<string, unknown>;
          return rest;
        };
        return [fields(got.Item), fields(updated.Attributes), fields(deleted.Attributes)];
      }),
    );
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[1]?.[1]).toMatchObject({ n: 43, text: 'changed', tags: new Set(['x', 'y']) });
  });

  test('Query pages alike (Limit, LastEvaluatedKey, ExclusiveStartKey), and BatchGetItem finds the same items', async () => {
    const factoryId = newFactoryId('lean');
    for (let i = 0; i < 5; i += 1) await sdk.send(new SdkPut({ TableName: contacts, Item: { factoryId, sk: `ct_${i}`, email: `${i}@example.com` } }));
    const pages = await Promise.all(
      sides.map(async ({ send, commands: { Query } }) => {
        const page = (start?: unknown) =>
          send(
            new Query({
              TableName: contacts,
              KeyConditionExpression: 'factoryId = :f',
              ExpressionAttributeValues: { ':f': factoryId },
              Limit: 2,
              ...(start ? { ExclusiveStartKey: start as Record<string, unknown> } : {}),
            }),
          );
        const first = await page();
        const second = await page(first.LastEvaluatedKey);
        return [first.Items, first.LastEvaluatedKey, second.Items];
      }),
    );
    expect(pages[1]).toEqual(pages[0]);
    expect(pages[1]?.[0]).toHaveLength(2);

    const keys = [
      { factoryId, sk: 'ct_1' },
      { factoryId, sk: 'ct_4' },
      { factoryId, sk: 'ct_missing' },
    ];
    const bySk = (items: unknown) => [...((items ?? []) as { sk: string }[])].sort((a, b) => a.sk.localeCompare(b.sk));
    const found = await Promise.all(
      sides.map(async ({ send, commands: { BatchGet } }) =>
        bySk(((await send(new BatchGet({ RequestItems: { [contacts]: { Keys: keys } } }))).Responses as Record<string, unknown>)[contacts]),
      ),
    );
    expect(found[1]).toEqual(found[0]);
    expect(found[1]).toHaveLength(2);
  });

  test('TransactWriteItems applies a Put, an Update, a Delete and a ConditionCheck together', async () => {
    const pk = (name: string) => `lean#tx#${name}#${newFactoryId()}`;
    const [kept, counted, removed, put] = [pk('kept'), pk('counted'), pk('removed'), pk('put')];
    for (const key of [kept, counted, removed]) await sdk.send(new SdkPut({ TableName: reports, Item: { pk: key, n: 1 } }));
    await client.send(
      new TransactWriteCommand({
        TransactItems: [
          { ConditionCheck: { TableName: reports, Key: { pk: kept }, ConditionExpression: 'n = :one', ExpressionAttributeValues: { ':one': 1 } } },
          { Update: { TableName: reports, Key: { pk: counted }, UpdateExpression: 'SET n = n + :one', ExpressionAttributeValues: { ':one': 1 } } },
          { Delete: { TableName: reports, Key: { pk: removed } } },
          { Put: { TableName: reports, Item: { pk: put, n: 7, note: undefined } } },
        ],
      }),
    );
    const read = async (key: string) => (await sdk.send(new SdkGet({ TableName: reports, Key: { pk: key }, ConsistentRead: true }))).Item;
    expect([await read(counted), await read(removed), await read(put)]).toEqual([{ pk: counted, n: 2 }, undefined, { pk: put, n: 7 }]);
  });
});

describe('failures reach the stores in the SDK shape', () => {
  const client = lean();
  afterAll(() => client.destroy());

  test('a refused condition is ConditionalCheckFailedException with the stored item (ALL_OLD), raw as the SDK gives it', async () => {
    const pk = `lean#ccf#${newFactoryId()}`;
    await sdk.send(new SdkPut({ TableName: reports, Item: { pk, writeToken: 'first' } }));
    const put = {
      TableName: reports,
      Item: { pk, writeToken: 'second' },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
    };
    const [viaSdk, viaLean] = [await failureOf(sdk.send(new SdkPut(put))), await failureOf(client.send(new PutCommand(put)))];
    expect(viaLean.name).toBe('ConditionalCheckFailedException');
    expect(viaLean.$fault).toBe('client');
    expect(viaLean.Item).toEqual(viaSdk.Item);
    expect(isConditionalCheckFailed(viaLean)).toBe(true);
    expect(itemOfFailure(viaLean as { Item?: Record<string, unknown> })).toEqual({ pk, writeToken: 'first' });
  });

  test('a cancelled transaction is TransactionCanceledException with the same cancellation reasons', async () => {
    const pk = `lean#cancel#${newFactoryId()}`;
    await sdk.send(new SdkPut({ TableName: reports, Item: { pk, n: 1 } }));
    const input = {
      TransactItems: [
        { Put: { TableName: reports, Item: { pk: `${pk}#other`, n: 1 } } },
        {
          Update: {
            TableName: reports,
            Key: { pk },
            UpdateExpression: 'SET n = :two',
            ConditionExpression: 'n = :zero',
            ExpressionAttributeValues: { ':two': 2, ':zero': 0 },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
          },
        },
      ],
    };
    const [viaSdk, viaLean] = [await failureOf(sdk.send(new SdkTransactWrite(input))), await failureOf(client.send(new TransactWriteCommand(input)))];
    expect(viaLean.name).toBe('TransactionCanceledException');
    expect(viaLean.CancellationReasons).toEqual(viaSdk.CancellationReasons);
    expect((viaLean.CancellationReasons as { Code?: string }[]).map((reason) => reason.Code)).toEqual(['None', 'ConditionalCheckFailed']);
  });

  test("a request DynamoDB refuses as malformed is the SDK's ValidationException, not a storage failure (never hidden as 503)", async () => {
    const error = await failureOf(client.send(new GetCommand({ TableName: reports, Key: { notTheKey: 'x' } })));
    expect(error.name).toBe('ValidationException');
    expect(error.$fault).toBe('client');
    expect(error.message).toMatch(/key/i);
    expect(isTransientStorageError(error)).toBe(false);
  });
});

/**
 * A proxy in front of DynamoDB Local that answers the next `faults` requests itself (DynamoDB's error bodies, silence,
 * or a given body at once), then forwards.
 */
type Fault = 'throttling' | 'internal-error' | 'silence' | { answer: unknown };
interface FaultProxy {
  url: string;
  faults: Fault[];
  requests: number;
  close: () => Promise<void>;
}

async function faultProxy(): Promise<FaultProxy> {
  const target = new URL(endpoint());
  const state: FaultProxy = { url: '', faults: [], requests: 0, close: async () => {} };
  const server: Server = createServer((req: IncomingMessage, res) => {
    state.requests += 1;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const fault = state.faults.shift();
      if (fault === 'silence') return; // accepted, never answered: only the client's timer ends it
      if (typeof fault === 'object') {
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify(fault.answer));
        return;
      }
      if (fault) {
        const [status, type] = fault === 'throttling' ? [400, 'ThrottlingException'] : [500, 'InternalServerError'];
        res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' });
        res.end(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message: `injected ${fault}` }));
        return;
      }
      const forward = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 500, answer.headers);
        answer.pipe(res);
      });
      forward.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

describe('retries, as the SDK retry strategy the configuration passes', () => {
  test('throttling, a server error and a silent socket are retried within the attempts, and the call then succeeds', async () => {
    const proxy = await faultProxy();
    // The default timeout for the calls DynamoDB Local answers (a loaded machine may take seconds); a short one only
    // where the proxy answers the retry itself at once, so that no attempt but the silent one can run out of time.
    const client = lean({ endpoint: proxy.url });
    const impatient = lean({ endpoint: proxy.url, requestTimeoutMs: 1000 });
    try {
      const pk = `lean#retry#${newFactoryId()}`;
      proxy.faults.push('throttling', 'internal-error');
      const answer = await client.send(new PutCommand({ TableName: reports, Item: { pk } }));
      expect(answer.$metadata.attempts).toBe(3);
      proxy.faults.push('silence', { answer: { Item: { pk: { S: pk } } } });
      const found = await impatient.send(new GetCommand({ TableName: reports, Key: { pk }, ConsistentRead: true }));
      expect(withoutMetadata(found)).toEqual({ Item: { pk } });
      expect(found.$metadata.attempts).toBe(2);
    } finally {
      client.destroy();
      impatient.destroy();
      await proxy.close();
    }
  });

  test("past the attempts, throttling is the store's StorageThrottledError (429) and a server error its StorageUnavailableError (503)", async () => {
    const proxy = await faultProxy();
    const client = lean({ endpoint: proxy.url });
    try {
      const get = () => storageCall('GetItem (test)', () => client.send(new GetCommand({ TableName: reports, Key: { pk: 'lean#none' } })));
      proxy.faults.push('throttling', 'throttling', 'throttling');
      await expect(get()).rejects.toBeInstanceOf(StorageThrottledError);
      proxy.faults.push('internal-error', 'internal-error', 'internal-error');
      await expect(get()).rejects.toBeInstanceOf(StorageUnavailableError);
      expect(proxy.requests).toBe(DEFAULT_DYNAMO_CONFIG.maxAttempts * 2);
    } finally {
      client.destroy();
      await proxy.close();
    }
  });
});
