import { Agent, request as httpRequest, type Server } from 'node:http';
import { createContactsHandler } from '../../lambda/contacts/api/routes';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { CallRecorder, type RequestTrace } from './counting';
import { installDelay, type DelaySetting } from './delay';
import type { BenchStore } from './store';

/** An HTTP request as the benchmark sends it. */
export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Reply {
  status: number;
  /** From sending the request to the last byte of the answer, as a client sees it. */
  ms: number;
  body: string;
  /** The calls the request made (containers that record only). */
  trace?: RequestTrace;
}

/**
 * One "Lambda container": the API handler built as the Lambda's entry point
 * builds it (one client, one contact store, one key authorizer, so one key
 * cache), behind the local HTTP adapter. The benchmark's hooks sit on the
 * SDK client it passes in, never in the handler.
 */
export interface Container {
  send(request: BenchRequest): Promise<Reply>;
  /** The delay added to each DynamoDB call of this container. */
  delay: DelaySetting;
  close(): Promise<void>;
}

export async function startContainer(store: BenchStore, options: { record: boolean }): Promise<Container> {
  const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: store.endpoint });
  const delay: DelaySetting = { ms: 0 };
  const recorder = options.record ? new CallRecorder(store.tables) : undefined;
  recorder?.install(client, { consumedCapacity: true });
  installDelay(client, delay);
  const doc = documentClientOf(client);
  const handler = createContactsHandler(dynamoDependencies(doc, store.tables));

  // Traces by request id: the adapter's id comes back in X-Request-Id.
  const traces = new Map<string, RequestTrace>();
  const traced: ApiHandler = recorder
    ? (event, context) => {
        const { trace, result } = recorder.trace(() => handler(event, context));
        traces.set(event.requestContext.requestId, trace);
        return result;
      }
    : handler;
  const server: Server = createHttpAdapter(traced);
  const port = await listen(server, 0, '127.0.0.1');
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });

  const send = (request: BenchRequest) =>
    new Promise<Reply>((resolve, reject) => {
      const headers: Record<string, string | number> = { ...request.headers };
      if (request.body !== undefined) headers['Content-Length'] = Buffer.byteLength(request.body);
      const started = performance.now();
      const req = httpRequest({ host: '127.0.0.1', port, method: request.method, path: request.path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const ms = performance.now() - started;
          const id = res.headers['x-request-id'];
          const trace = typeof id === 'string' ? traces.get(id) : undefined;
          if (typeof id === 'string') traces.delete(id);
          resolve({ status: res.statusCode ?? 0, ms, body: Buffer.concat(chunks).toString('utf8'), trace });
        });
      });
      req.on('error', reject);
      if (request.body !== undefined) req.write(request.body);
      req.end();
    });

  return {
    send,
    delay,
    close: async () => {
      agent.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      client.destroy();
    },
  };
}
