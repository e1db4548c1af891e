/**
 * The service-semantics proxy: an HTTP server in front of a DynamoDB Local
 * that forwards every request (the DynamoDB API, `DynamoDB_20120810.*`, and
 * the streams API, `DynamoDBStreams_20120810.*`, on the same endpoint) and adds
 * what the service does and DynamoDB Local does not (its usage notes say it
 * throws no transaction conflicts and ignores throughput, DynamoDBLocal.UsageNotes.html):
 * transaction conflicts (holds.ts) and a write ceiling per partition key value
 * of every table and index (buckets.ts, cost-model.ts), refused the way the
 * service refuses (service-errors.ts); and it counts (stats.ts).
 *
 *   GET  /__semantics/stats[?table=T][&index=I][&prefix=P…][&limit=N]   the counts, as JSON
 *   POST /__semantics/reset                                   counts and buckets to zero
 *   GET  /__semantics/config, POST /__semantics/config {…}    the settings (config.ts)
 *
 * A test layer: it reads items around each write to cost it (write-path.ts).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Buckets } from './buckets';
import { DEFAULT_CONFIG, withChanges, type SemanticsConfig } from './config';
import { Holds } from './holds';
import { ItemLocks } from './item-locks';
import { WRITE_OPERATIONS } from './requests';
import { jsonAnswer } from './service-errors';
import { Stats, type StatsFilter, type StatsSnapshot } from './stats';
import { SchemaCache, schemaFromDescription } from './table-schemas';
import { endToEnd, Target } from './target';
import type { Answer, BeforeForward, Semantics } from './context';
import { handleItemRequest } from './write-path';
import { isObject, type Json } from './wire';

export interface SemanticsProxyOptions extends Partial<SemanticsConfig> {
  /** The DynamoDB Local to forward to, e.g. http://localhost:8000. */
  target: string;
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  host?: string;
  /** Milliseconds now, for the ceiling's buckets (tests freeze or step it). */
  clock?: () => number;
  beforeForward?: BeforeForward;
}

export interface SemanticsProxy {
  /** What to give DYNAMODB_ENDPOINT. */
  endpoint: string;
  port: number;
  stats(filter?: StatsFilter): StatsSnapshot;
  reset(): void;
  config(): SemanticsConfig;
  configure(changes: Partial<SemanticsConfig>): SemanticsConfig;
  /** Items held by transactions and writes in flight now. */
  heldItems(): number;
  close(): Promise<void>;
}

const CONTROL = '/__semantics/';

/** The stats filter of a query string: table, index, any number of prefix, limit; an Error for a limit that is not one. */
export function filterOf(query: URLSearchParams): StatsFilter {
  const filter: StatsFilter = {};
  const table = query.get('table');
  const index = query.get('index');
  const prefixes = query.getAll('prefix');
  const limit = query.get('limit');
  if (table !== null) filter.table = table;
  if (index !== null) filter.index = index;
  if (prefixes.length > 0) filter.prefix = prefixes;
  if (limit !== null) {
    if (!/^\d+$/.test(limit)) throw new Error(`limit must be a whole number, got "${limit}"`);
    filter.limit = Number(limit);
  }
  return filter;
}

async function bodyOf(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, answer: Answer): void {
  const body = typeof answer.body === 'string' ? Buffer.from(answer.body, 'utf8') : answer.body;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined && name.toLowerCase() !== 'content-length') headers[name] = value;
  response.writeHead(answer.status, { ...endToEnd(headers), 'content-length': String(body.length) });
  response.end(body);
}

const plainJson = (status: number, value: unknown): Answer => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: `${JSON.stringify(value, null, 2)}\n`,
});

export async function startSemanticsProxy(options: SemanticsProxyOptions): Promise<SemanticsProxy> {
  const { target: targetUrl, port = 0, host, clock = Date.now, beforeForward, ...settings } = options;
  let config = withChanges(DEFAULT_CONFIG, settings);
  const target = new Target(targetUrl);
  const buckets = new Buckets(config, clock);
  const semantics: Semantics = {
    target,
    schemas: new SchemaCache(async (table) => {
      const answer = await target.call('DescribeTable', { TableName: table }, {});
      return answer.status === 200 ? schemaFromDescription(answer.body.Table) : undefined;
    }),
    holds: new Holds(),
    locks: new ItemLocks(),
    buckets,
    stats: new Stats(),
    config: () => config,
    beforeForward,
  };
  const configure = (changes: Partial<SemanticsConfig>) => {
    config = withChanges(config, changes);
    buckets.configure(config);
    return config;
  };
  const reset = () => {
    semantics.stats.reset();
    buckets.reset();
  };

  async function control(request: IncomingMessage, url: URL): Promise<Answer> {
    const route = `${request.method} ${url.pathname.slice(CONTROL.length)}`;
    if (route === 'GET stats') {
      let filter: StatsFilter;
      try {
        filter = filterOf(url.searchParams);
      } catch (error) {
        return plainJson(400, { error: error instanceof Error ? error.message : String(error) });
      }
      return plainJson(200, semantics.stats.snapshot(filter));
    }
    if (route === 'POST reset') {
      reset();
      return plainJson(200, { reset: true });
    }
    if (route === 'GET config') return plainJson(200, config);
    if (route === 'POST config') {
      let changes: unknown;
      try {
        changes = JSON.parse((await bodyOf(request)).toString('utf8') || '{}');
      } catch {
        return plainJson(400, { error: 'the body must be a JSON object of settings, e.g. {"ceiling": 100}' });
      }
      if (!isObject(changes)) return plainJson(400, { error: 'the body must be a JSON object of settings, e.g. {"ceiling": 100}' });
      try {
        return plainJson(200, configure(changes as Partial<SemanticsConfig>));
      } catch (error) {
        return plainJson(400, { error: error instanceof Error ? error.message : String(error) });
      }
    }
    return plainJson(404, { error: `no ${request.method} ${url.pathname}: the proxy answers GET stats, POST reset, GET and POST config under ${CONTROL}` });
  }

  async function proxied(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const raw = await bodyOf(request);
    const amzTarget = String(request.headers['x-amz-target'] ?? '');
    const [service, operation = ''] = amzTarget.split('.');
    let body: Json | undefined;
    try {
      const parsed: unknown = raw.length > 0 ? JSON.parse(raw.toString('utf8')) : {};
      body = isObject(parsed) ? parsed : undefined;
    } catch {
      body = undefined;
    }
    const path = request.url ?? '/';
    if (service === 'DynamoDB_20120810' && body && (WRITE_OPERATIONS.has(operation) || operation === 'TransactGetItems')) {
      const answer = await handleItemRequest(semantics, { operation, body, raw, headers: request.headers, path });
      if (answer) return send(response, answer);
    }
    if (service === 'DynamoDB_20120810') semantics.stats.request(operation);
    else if (service === 'DynamoDBStreams_20120810') semantics.stats.request(`${service}.${operation}`);
    await beforeForward?.({ operation, body: body ?? {} });
    const answer = await target.stream(request.method ?? 'POST', path, request.headers, raw);
    // A table created, changed or deleted through the proxy: its schema is read again at its next write.
    const changedTable = ['CreateTable', 'UpdateTable', 'DeleteTable'].includes(operation) && typeof body?.TableName === 'string' ? body.TableName : undefined;
    if (changedTable) answer.on('end', () => semantics.schemas.forget(changedTable));
    response.writeHead(answer.statusCode ?? 502, endToEnd(answer.headers));
    answer.pipe(response);
  }

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://proxy');
    const handled = url.pathname.startsWith(CONTROL) ? control(request, url).then((answer) => send(response, answer)) : proxied(request, response);
    handled.catch((error: unknown) => {
      // DynamoDB Local unreachable, or a bug here: a 5xx the SDKs retry, saying why.
      const message = `semantics proxy: ${error instanceof Error ? error.message : String(error)} (DynamoDB at ${targetUrl})`;
      if (!response.headersSent) send(response, jsonAnswer(502, { __type: 'com.amazonaws.dynamodb.v20120810#InternalServerError', message }));
      else response.destroy();
    });
  });
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    endpoint: `http://localhost:${bound}`,
    port: bound,
    stats: (filter) => semantics.stats.snapshot(filter),
    reset,
    config: () => config,
    configure,
    heldItems: () => semantics.holds.size(),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      target.close();
    },
  };
}
