import { createIngestHandler, type IngestDependencies } from '../../lambda/ingest/api/routes';
import { DEFAULT_ADDRESS_LIMITS } from '../../lambda/ingest/limits';
import { hashSecret } from '../../lambda/kernel/api-key';
import { MemoryAddressLimiter } from '../../lambda/infrastructure/memory/memory-address-limiter';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import type { IngestKeyAuthorizer, VisitorSalts } from '../../lambda/ingest/ports';
import { lambdaContext, proxyEvent } from './events';

/**
 * The ingest API's handler on in-memory ports, for the tests of its own
 * modules (test/lambda/ingest/api/): a publishable key for ORIGIN (and one
 * that servers may use too), a secret key, and requests as API Gateway hands
 * them over. Over HTTP on DynamoDB Local: test/api/ingest*.test.ts.
 */
export const ORIGIN = 'https://shop.example.com';
// Each ends in a character whose last two bits are zero, as generateKey's do: the key survives its DSN form (sentry/dsn.ts) unchanged.
export const PK = `dfpk_${'p'.repeat(42)}A`;
export const SERVERS_PK = `dfpk_${'s'.repeat(42)}A`;
export const SK = `dfsk_${'k'.repeat(43)}`;
export const KEY_ID = 'key_0000000000000001';

export interface IngestAnswer {
  status: number;
  body: Record<string, any>;
  headers: Record<string, string>;
}

export interface MemoryIngestOptions {
  rateLimit?: number;
  now?: () => number;
  visitorSalts?: VisitorSalts;
  /** The key calls as the handler sees them: a test may wrap them to answer otherwise at one step. */
  keys?: (keys: MemoryIngestKeys) => IngestKeyAuthorizer;
}

export function memoryIngestApi(options: MemoryIngestOptions = {}) {
  const keys = new MemoryIngestKeys();
  const common = { factoryId: 'fac_ingest', rateLimit: options.rateLimit ?? 600, origins: [ORIGIN] };
  keys.issue(hashSecret(PK), { type: 'publishable', keyId: KEY_ID, ...common });
  keys.issue(hashSecret(SERVERS_PK), { type: 'publishable', keyId: 'key_0000000000000002', servers: true, ...common });
  keys.issue(hashSecret(SK), { type: 'secret', keyId: 'key_0000000000000003', ...common });
  const reports = new MemoryReportStore();
  const deps: IngestDependencies = {
    keys: options.keys ? options.keys(keys) : keys,
    limiter: new MemoryAddressLimiter(DEFAULT_ADDRESS_LIMITS),
    issueLimits: new MemoryIssueLimiter(),
    reports,
    retentionDays: 90,
    visitorSalts: options.visitorSalts,
    now: options.now ?? (() => Date.parse('2026-11-21T09:00:00Z')),
  };
  const handler = createIngestHandler(deps);
  let ip = 0;
  const send = async (request: {
    method?: string;
    path: string;
    body?: string | Buffer;
    headers?: Record<string, string>;
    query?: Record<string, string | string[]>;
    /** The client's address; each request has its own unless given. */
    sourceIp?: string;
    pathParameters?: Record<string, string>;
  }): Promise<IngestAnswer> => {
    const binary = Buffer.isBuffer(request.body);
    ip += 1;
    const answer = await handler(
      proxyEvent({
        httpMethod: request.method ?? 'POST',
        path: request.path,
        headers: request.headers ?? {},
        body: request.body === undefined ? null : binary ? (request.body as Buffer).toString('base64') : (request.body as string),
        isBase64Encoded: binary,
        queryStringParameters: request.query ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, [v].flat().at(-1) as string])) : null,
        multiValueQueryStringParameters: request.query ? Object.fromEntries(Object.entries(request.query).map(([k, v]) => [k, [v].flat()])) : null,
        pathParameters: request.pathParameters ?? null,
        // Each request from its own address, unless a test says otherwise: the per-address limit is its own test's.
        requestContext: { requestId: `r${ip}`, identity: { sourceIp: request.sourceIp ?? `198.51.100.${ip % 250}` } } as never,
      }),
      lambdaContext(),
    );
    return {
      status: answer.statusCode,
      body: answer.body ? (JSON.parse(answer.body) as Record<string, any>) : {},
      headers: (answer.headers ?? {}) as Record<string, string>,
    };
  };
  /** A JSON POST from the key's website with the publishable key, as the SDK's fetch sends it. */
  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    send({ path, body: JSON.stringify(body), headers: { origin: ORIGIN, authorization: `Bearer ${PK}`, 'content-type': 'application/json', ...headers } });
  return { keys, reports, deps, send, post };
}

/** Key calls whose key is revoked between the access check (a lease still fresh) and the count of its limit: what a revocation mid-request looks like. */
export const revokedAfterCheck = (keys: MemoryIngestKeys): IngestKeyAuthorizer => ({
  authenticate: (keyHash) => keys.authenticate(keyHash),
  markExposed: (keyHash, nowMs) => keys.markExposed(keyHash, nowMs),
  knownKey: (keyHash) => keys.knownKey(keyHash),
  admitRequest: async () => ({ admitted: false, revoked: true }),
});
