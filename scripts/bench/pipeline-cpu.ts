/**
 * The handler's own cost, without DynamoDB: the whole Middy pipeline
 * (normalizers, Origin and key checks, routing, JSON, zod, logs, metrics)
 * over in-memory stores, CPU microseconds per request. A lower bound only:
 * a hot loop of identical requests with stores that answer at once, so
 * nothing else evicts the pipeline from the CPU's caches and no SDK promise
 * meets the request's async context. What the handler adds around real
 * DynamoDB calls is counted by instructions.ts. Run on its own:
 *   node --import tsx scripts/bench/pipeline-cpu.ts
 * with LOG_LEVEL=SILENT POWERTOOLS_METRICS_DISABLED=true to leave telemetry out.
 * Its output goes to stderr; the request log lines (stdout) can go to /dev/null.
 */
import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { createApiHandler } from '../../lambda/api/app';
import type { Contact } from '../../lambda/domain/contact';
import type { ContactStore, KeyAuthorizer } from '../../lambda/domain/ports';

const contact: Contact = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_pipeline',
  email: 'ada@example.com',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
};
const contacts: ContactStore = {
  writeContact: async () => ({ contact, created: false }),
  createCompanyIfMissing: async () => undefined,
  getContact: async () => contact,
};
const caller = { factoryId: contact.factoryId, keyId: 'key_pipeline' };
const keys: KeyAuthorizer = { authorize: async () => ({ outcome: 'allowed', ...caller }), knownCaller: () => caller };
const handler = createApiHandler({ contacts, keys });

const key = `dfsk_${'a'.repeat(43)}`;
const context = { awsRequestId: 'pipeline', getRemainingTimeInMillis: () => 10_000 } as unknown as Context;
const body = JSON.stringify({ email: contact.email, name: 'Ada Lovelace' });

function event(method: 'GET' | 'POST'): APIGatewayProxyEvent {
  const get = method === 'GET';
  return {
    httpMethod: method,
    path: '/api/v1/contacts',
    resource: '/{proxy+}',
    headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
    multiValueHeaders: {},
    queryStringParameters: get ? { email: contact.email } : null,
    multiValueQueryStringParameters: get ? { email: [contact.email] } : null,
    pathParameters: null,
    stageVariables: null,
    body: get ? null : body,
    isBase64Encoded: false,
    requestContext: { requestId: 'pipeline' } as APIGatewayProxyEvent['requestContext'],
  };
}

async function main(): Promise<void> {
  const requests = 20_000;
  for (const method of ['GET', 'POST'] as const) {
    for (let i = 0; i < 3_000; i += 1) await handler(event(method), context); // warm-up: JIT
    const start = process.cpuUsage();
    for (let i = 0; i < requests; i += 1) await handler(event(method), context);
    const used = process.cpuUsage(start);
    process.stderr.write(`${method}: ${((used.user + used.system) / requests).toFixed(1)} µs of CPU per request (${requests} requests)\n`);
  }
}

void main();
