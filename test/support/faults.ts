/** DynamoDB faults for tests: an SDK middleware on the real client that fails chosen calls the way DynamoDB or the network would. */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import type { ContactsDependencies } from '../../lambda/contacts/api/routes';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf, type DynamoConfig } from '../../lambda/infrastructure/store/dynamo-client';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { COMPANY_SK_PREFIX, CONTACT_SK_PREFIX } from '../../lambda/infrastructure/store/schema';
import { endpoint, startLocalApi, tables, type LocalApi } from './local-api';

/**
 * The DynamoDB calls a request makes, told apart by operation, table and what
 * the call does (never by their order: a GET may run the key check and the
 * read in parallel).
 */
export type DynamoCall = 'authorize' | 'contact-upsert' | 'company-create' | 'contact-read' | 'report-put' | 'address-limit';

/** Answers that DynamoDB itself gives (the SDK's own deserializer turns them into its exceptions). */
const SERVICE_FAULTS = {
  throttling: { status: 400, type: 'ThrottlingException', message: 'Rate of requests exceeds the allowed throughput.' },
  'provisioned-throughput': {
    status: 400,
    type: 'ProvisionedThroughputExceededException',
    message: 'The level of configured provisioned throughput for the table was exceeded.',
  },
  'internal-error': { status: 500, type: 'InternalServerError', message: 'Internal server error' },
  'service-unavailable': { status: 503, type: 'ServiceUnavailable', message: 'DynamoDB is currently unavailable.' },
} as const;

type ServiceFault = keyof typeof SERVICE_FAULTS;

/**
 * What can go wrong with one attempt of a call:
 * - a DynamoDB error answer (SERVICE_FAULTS);
 * - `timeout`: the SDK's request timeout fired (the error its HTTP handler throws);
 * - `connection-reset`: the connection dropped mid-request (a real reset socket before
 *   sending; after, the error the SDK's HTTP handler throws for one);
 * - `connection-refused`: nothing listens (a real closed port);
 * - `hang`: DynamoDB accepts and never answers (a real silent socket), so only the
 *   SDK's own timers end the attempt.
 */
export type Fault = ServiceFault | 'timeout' | 'connection-reset' | 'connection-refused' | 'hang';

/** Faults that can replace the answer of a call DynamoDB has already applied. */
export type LostAnswerFault = 'internal-error' | 'service-unavailable' | 'timeout' | 'connection-reset';

export const FAULTS: readonly Fault[] = [
  'throttling',
  'provisioned-throughput',
  'internal-error',
  'service-unavailable',
  'timeout',
  'connection-reset',
  'connection-refused',
  'hang',
];
export const LOST_ANSWER_FAULTS: readonly LostAnswerFault[] = ['internal-error', 'service-unavailable', 'timeout', 'connection-reset'];

export type FaultRule = {
  call: DynamoCall;
  /** Attempts to fail (each SDK retry is an attempt); unlimited by default, so the fault outlasts the SDK's retries. */
  times?: number;
  /** Chance that a matching attempt fails (chaos runs); 1 by default. */
  probability?: number;
} & (
  | { when: 'before'; fault: Fault }
  /** The call reaches DynamoDB and is applied; its answer is replaced by the fault. */
  | { when: 'after'; fault: LostAnswerFault }
);

/** One injected rule: how many attempts it failed so far. */
export interface InjectedFault {
  readonly hits: number;
  remove(): void;
}

interface ObservedCall {
  operation: string;
  table: string | undefined;
  sk: string | undefined;
  /** The reports table's key. */
  pk: string | undefined;
  condition: string | undefined;
}

const MATCHES: Record<DynamoCall, (call: ObservedCall) => boolean> = {
  authorize: (c) => c.operation === 'UpdateItem' && c.table === tables.keys,
  'contact-upsert': (c) => c.operation === 'UpdateItem' && c.table === tables.contacts && !!c.sk?.startsWith(CONTACT_SK_PREFIX) && !c.condition,
  'company-create': (c) =>
    c.operation === 'UpdateItem' && c.table === tables.contacts && !!c.sk?.startsWith(COMPANY_SK_PREFIX) && /attribute_not_exists/.test(c.condition ?? ''),
  'contact-read': (c) => c.operation === 'GetItem' && c.table === tables.contacts,
  // Each event is a PutItem of its own; a feature request is an UpdateItem that creates it.
  'report-put': (c) =>
    c.table === tables.reports && ((c.operation === 'PutItem' && !!c.pk?.startsWith('event#')) || (c.operation === 'UpdateItem' && !!c.pk?.startsWith('fr#'))),
  'address-limit': (c) => c.operation === 'UpdateItem' && c.table === tables.reports && !!c.pk?.startsWith('limit#'),
};

/** A key attribute as the middleware sees it: marshalled (`{S: "…"}`) by the document client. */
function keyString(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && 'S' in value && typeof value.S === 'string') return value.S;
  return undefined;
}

function observe(commandName: string | undefined, input: unknown): ObservedCall {
  const { TableName, Key, Item, ConditionExpression, TransactItems } = (input ?? {}) as {
    TableName?: string;
    Key?: Record<string, unknown>;
    Item?: Record<string, unknown>;
    ConditionExpression?: string;
    TransactItems?: { Put?: { TableName?: string }; Update?: { TableName?: string } }[];
  };
  const first = TransactItems?.[0];
  return {
    operation: (commandName ?? '').replace(/Command$/, ''),
    table: TableName ?? first?.Put?.TableName ?? first?.Update?.TableName,
    sk: keyString(Key?.sk),
    pk: keyString(Key?.pk ?? Item?.pk),
    condition: ConditionExpression,
  };
}

/** DynamoDB's JSON error answer, as an HTTP response for the SDK's deserializer. */
function serviceAnswer(fault: ServiceFault) {
  const { status, type, message } = SERVICE_FAULTS[fault];
  const body = Buffer.from(JSON.stringify({ __type: `com.amazonaws.dynamodb.v20120810#${type}`, message }));
  return {
    statusCode: status,
    reason: status === 400 ? 'Bad Request' : status === 500 ? 'Internal Server Error' : 'Service Unavailable',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'content-length': String(body.length),
      'x-amzn-requestid': randomUUID(),
    },
    body,
  };
}

/** The errors @smithy/node-http-handler throws for a request timeout and for a reset connection. */
function networkError(fault: 'timeout' | 'connection-reset', requestTimeoutMs: number): Error {
  if (fault === 'timeout') {
    return Object.assign(new Error(`@smithy/node-http-handler - [ERROR] a request has exceeded the configured ${requestTimeoutMs} ms requestTimeout.`), {
      name: 'TimeoutError',
      code: 'ETIMEDOUT',
    });
  }
  return Object.assign(new Error('read ECONNRESET'), { name: 'TimeoutError', code: 'ECONNRESET', errno: -104, syscall: 'read' });
}

/** Reads a real answer to its end, so its keep-alive socket goes back to the pool. */
async function drain(response: unknown): Promise<void> {
  const body = (response as { body?: unknown } | undefined)?.body;
  if (body && typeof body === 'object' && Symbol.asyncIterator in body) {
    for await (const _chunk of body as AsyncIterable<unknown>);
  }
}

/** Local servers that misbehave at the socket level; one set per test file, started on first use. */
class Misbehaving {
  private started: Promise<{ hang: number; reset: number; refused: number }> | undefined;
  private readonly servers: Server[] = [];
  private readonly sockets = new Set<Socket>();

  ports() {
    this.started ??= (async () => {
      // Accepts and never answers: a stuck DynamoDB.
      const hang = await this.listen((socket) => socket.resume());
      // Resets the connection as soon as the request arrives.
      const reset = await this.listen((socket) => socket.once('data', () => socket.resetAndDestroy()));
      // A port nothing listens on: a privileged one, as a freed ephemeral port may soon serve another test's server.
      const refused = 1;
      await new Promise<void>((resolve, reject) =>
        connect(refused, '127.0.0.1')
          .once('connect', function (this: Socket) {
            this.destroy();
            reject(new Error(`something listens on 127.0.0.1:${refused}: connection-refused faults need a closed port`));
          })
          .once('error', () => resolve()),
      );
      return { hang, reset, refused };
    })();
    return this.started;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
    this.servers.length = 0;
    this.started = undefined;
  }

  private listen(onSocket: (socket: Socket) => void): Promise<number> {
    const server = createServer((socket) => {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => this.sockets.delete(socket));
      onSocket(socket);
    });
    this.servers.push(server);
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
  }
}

const misbehaving = new Misbehaving();

/** Stops the misbehaving servers of this test file (call in afterAll). */
export const stopFaultServers = (): Promise<void> => misbehaving.stop();

/** The same request sent to another local port (a copy: the SDK's next attempt must not inherit it). */
function redirected(request: unknown, port: number): unknown {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(request) as object) as object, request);
  return Object.assign(copy, { hostname: '127.0.0.1', port });
}

interface ActiveRule {
  rule: FaultRule;
  hits: number;
}

/**
 * Fails the calls its rules select. It sits just above the HTTP handler (under
 * the SDK's retry and deserializer): each SDK attempt meets it, service errors
 * go through the SDK's own parsing, and the retry strategy decides as in
 * production.
 */
export class FaultInjector {
  private rules: ActiveRule[] = [];

  constructor(
    client: DynamoDBClient,
    private readonly requestTimeoutMs: number,
  ) {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const active = this.firing(observe(context.commandName, args.input));
        if (!active) return next(args);
        const { rule } = active;
        if (rule.when === 'after') {
          const applied = await next(args);
          await drain(applied.response);
          if (rule.fault === 'timeout' || rule.fault === 'connection-reset') throw networkError(rule.fault, this.requestTimeoutMs);
          return { response: serviceAnswer(rule.fault) };
        }
        switch (rule.fault) {
          case 'timeout':
            throw networkError('timeout', this.requestTimeoutMs);
          case 'connection-reset':
            return next({ ...args, request: redirected(args.request, (await misbehaving.ports()).reset) });
          case 'connection-refused':
            return next({ ...args, request: redirected(args.request, (await misbehaving.ports()).refused) });
          case 'hang':
            return next({ ...args, request: redirected(args.request, (await misbehaving.ports()).hang) });
          default:
            return { response: serviceAnswer(rule.fault) };
        }
      },
      { step: 'deserialize', priority: 'low', name: 'injectFaults', override: true },
    );
  }

  /** Fails the selected call from now on (each attempt, SDK retries included, until `times` is used up). */
  inject(rule: FaultRule): InjectedFault {
    const active: ActiveRule = { rule, hits: 0 };
    this.rules.push(active);
    return {
      get hits() {
        return active.hits;
      },
      remove: () => {
        this.rules = this.rules.filter((other) => other !== active);
      },
    };
  }

  clear(): void {
    this.rules = [];
  }

  private firing(call: ObservedCall): ActiveRule | undefined {
    for (const active of this.rules) {
      const { rule } = active;
      if (!MATCHES[rule.call](call) || active.hits >= (rule.times ?? Infinity)) continue;
      if (rule.probability !== undefined && Math.random() >= rule.probability) continue;
      active.hits += 1;
      return active;
    }
    return undefined;
  }
}

export interface FaultyApi {
  api: LocalApi;
  faults: FaultInjector;
  close(): Promise<void>;
}

/**
 * The API in-process on the run's DynamoDB Local, wired like the Lambda
 * (`realDependencies`), with a FaultInjector on its DynamoDB client. Its own
 * client, so the SDK's retry budget is not shared with other tests.
 */
export async function startFaultyApi(options: { config?: Partial<DynamoConfig>; now?: () => number } = {}): Promise<FaultyApi> {
  const config: DynamoConfig = { ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint(), ...options.config };
  const client = createDynamoClient(config);
  const faults = new FaultInjector(client, config.requestTimeoutMs);
  const doc = documentClientOf(client);
  const deps: ContactsDependencies = dynamoDependencies(doc, tables);
  if (options.now) deps.now = options.now;
  const api = await startLocalApi(deps);
  return {
    api,
    faults,
    close: async () => {
      await api.close();
      client.destroy();
    },
  };
}
