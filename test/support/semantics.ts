/**
 * The service-semantics proxy (tools/semantics/) for tests: in front of the
 * run's DynamoDB Local, with a frozen clock (buckets refill only when a test
 * steps it), tables of the test's own, SDK clients, and gates that hold a
 * chosen request before it is forwarded, so that overlaps are made, not hoped for.
 */
import { CreateTableCommand, DynamoDBClient, type AttributeValue, type CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { randomBytes } from 'node:crypto';
import { startSemanticsProxy, type SemanticsProxy, type SemanticsProxyOptions } from '../../tools/semantics/proxy';
import type { ForwardedRequest } from '../../tools/semantics/context';
import { endpoint } from './local-api';

/** The run's DynamoDB Local itself, even when the whole run goes through a proxy (SEMANTICS=on, global-setup.ts). */
const localEndpoint = () => process.env.DYNAMODB_LOCAL_ENDPOINT || endpoint();

export interface TestProxy extends SemanticsProxy {
  /** Moves the proxy's clock (frozen otherwise) forward, refilling the buckets that much. */
  advance(ms: number): void;
  /** Holds the next request `match` accepts before it is forwarded, until `release()`. */
  gate(match: (request: ForwardedRequest) => boolean): Gate;
  /** An SDK client on the proxy: no retries unless asked. */
  client(maxAttempts?: number): DynamoDBClient;
}

export interface Gate {
  /** Resolves once the held request is about to be forwarded. */
  reached: Promise<void>;
  release(): void;
}

export async function startTestProxy(options: Partial<SemanticsProxyOptions> = {}): Promise<TestProxy> {
  const gates: { match: (request: ForwardedRequest) => boolean; arrive: () => void; released: Promise<void> }[] = [];
  const clients: DynamoDBClient[] = [];
  const clock = { now: 1_000_000 };
  const proxy = await startSemanticsProxy({
    target: localEndpoint(),
    holdMs: 0,
    clock: () => clock.now,
    beforeForward: async (request) => {
      const index = gates.findIndex((gate) => gate.match(request));
      if (index === -1) return;
      const [gate] = gates.splice(index, 1);
      gate?.arrive();
      await gate?.released;
    },
    ...options,
  });
  return {
    ...proxy,
    advance(ms: number) {
      clock.now += ms;
    },
    gate(match: (request: ForwardedRequest) => boolean): Gate {
      let arrive!: () => void;
      let release!: () => void;
      const reached = new Promise<void>((resolve) => (arrive = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      gates.push({ match, arrive, released });
      return { reached, release };
    },
    client(maxAttempts = 1): DynamoDBClient {
      const client = sdkClient(proxy.endpoint, maxAttempts);
      clients.push(client);
      return client;
    },
    close: async () => {
      for (const client of clients) client.destroy();
      await proxy.close();
    },
  };
}

export function sdkClient(at: string, maxAttempts = 1): DynamoDBClient {
  return new DynamoDBClient({ endpoint: at, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' }, maxAttempts });
}

/** A client straight to the run's DynamoDB Local, past the proxy: what is really stored. */
export const directClient = () => sdkClient(localEndpoint());

export interface TestTableOptions {
  sortKey?: boolean;
  /** Global secondary indexes: name → partition key attribute (string), its projection. */
  indexes?: { name: string; partitionKey: string; sortKey?: string; projection?: 'KEYS_ONLY' | 'ALL' | string[] }[];
  stream?: boolean;
}

/** A table of the test's own on the run's DynamoDB Local (key `pk`, and `sk` when asked); its name. */
export async function createTestTable(label: string, options: TestTableOptions = {}): Promise<string> {
  const name = `sem-${label}-${randomBytes(5).toString('hex')}`;
  const attributes = new Set([
    'pk',
    ...(options.sortKey ? ['sk'] : []),
    ...(options.indexes ?? []).flatMap((index) => [index.partitionKey, ...(index.sortKey ? [index.sortKey] : [])]),
  ]);
  const input: CreateTableCommandInput = {
    TableName: name,
    BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [...attributes].map((attribute) => ({ AttributeName: attribute, AttributeType: 'S' })),
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, ...(options.sortKey ? [{ AttributeName: 'sk', KeyType: 'RANGE' as const }] : [])],
  };
  if (options.indexes?.length) {
    input.GlobalSecondaryIndexes = options.indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' },
        ...(index.sortKey ? [{ AttributeName: index.sortKey, KeyType: 'RANGE' as const }] : []),
      ],
      Projection: Array.isArray(index.projection)
        ? { ProjectionType: 'INCLUDE', NonKeyAttributes: index.projection }
        : { ProjectionType: index.projection === 'ALL' ? 'ALL' : 'KEYS_ONLY' },
    }));
  }
  if (options.stream) input.StreamSpecification = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' };
  const client = directClient();
  try {
    await client.send(new CreateTableCommand(input));
  } finally {
    client.destroy();
  }
  return name;
}

/** `{ S: text }` */
export const s = (text: string): AttributeValue => ({ S: text });

/** An error's name and its cancellation codes, for expectations. */
export async function failureOf(promise: Promise<unknown>): Promise<{ name: string; codes?: string[]; attempts?: number; error: any }> {
  try {
    await promise;
  } catch (error: any) {
    return { name: error.name, codes: error.CancellationReasons?.map((reason: { Code: string }) => reason.Code), attempts: error.$metadata?.attempts, error };
  }
  throw new Error('expected the call to fail, and it succeeded');
}
