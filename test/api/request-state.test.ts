import type { Context } from 'aws-lambda';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { METRIC } from '../../lambda/infrastructure/observability/names';
import { lambdaContext, proxyEvent } from '../support/events';
import { EVENTS, SITE, validEvent } from '../support/ingest';
import { issueKey, issuePublishableKey, newFactoryId } from '../support/local-api';

/**
 * A warm container hands every request the same Lambda context. What one
 * request learns (its caller, where its key stands, its DynamoDB calls, its
 * route, what it adds to its log line and metrics, its client) must not
 * reach the next: each request gets its own state, and the shared context
 * is left as the runtime made it. Seen from outside: the second request's
 * log line, metrics and headers say nothing of the first.
 */
type Line = Record<string, unknown>;

let contacts: ApiHandler;
let ingest: ApiHandler;

beforeAll(async () => {
  const saved = { level: process.env.LOG_LEVEL, metrics: process.env.POWERTOOLS_METRICS_DISABLED };
  process.env.LOG_LEVEL = 'INFO';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  try {
    // The logger and the metrics read their settings once, at load: fresh copies of the entry points.
    await jest.isolateModulesAsync(async () => {
      contacts = (await import('../../lambda/contacts/api/contacts-entry')).handler;
      ingest = (await import('../../lambda/ingest/api/ingest-entry')).handler;
    });
  } finally {
    process.env.LOG_LEVEL = saved.level;
    process.env.POWERTOOLS_METRICS_DISABLED = saved.metrics;
  }
});

/** One request through `handler` with `context`: its answer, its log line and its metrics document. */
async function call(handler: ApiHandler, event: ReturnType<typeof proxyEvent>, context: Context) {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }),
  );
  let answer;
  try {
    answer = await handler(event, context);
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  const lines = written
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
  const log = lines.find((line) => line.message === 'request');
  const metrics = lines.find((line) => '_aws' in line);
  if (!log || !metrics) throw new Error(`expected a log line and a metrics document, got: ${written.join('')}`);
  return { answer, log, metrics };
}

/** The context's own properties and their values, to compare before and after. */
const snapshot = (context: Context) => Object.fromEntries(Object.entries(context));

test('contacts API: a request refused at the key check, after an admitted read on the same warm context, has no caller, calls, route or rate-limit headers of the read', async () => {
  const factoryId = newFactoryId('state');
  const { key, keyId } = await issueKey(factoryId);
  const context = lambdaContext();
  const before = snapshot(context);

  const first = await call(
    contacts,
    proxyEvent({ httpMethod: 'GET', path: '/api/v1/contacts/ct_0000000000000000', headers: { Authorization: `Bearer ${key}` } }),
    context,
  );
  // What the first request learned, so the second can be checked against it.
  expect(first.answer.statusCode).toBe(404);
  expect(first.answer.headers).toHaveProperty('RateLimit');
  expect(first.log).toMatchObject({ route: 'GET /api/v1/contacts/{id}', factoryId, keyId, dynamoCalls: expect.any(Number) });
  expect(first.log.dynamoCalls).toBeGreaterThan(0);

  const second = await call(contacts, proxyEvent({ httpMethod: 'POST', path: '/api/v1/contacts', body: '{}' }), context);
  expect(second.answer.statusCode).toBe(401);
  expect(Object.keys(second.answer.headers ?? {}).filter((name) => name.startsWith('RateLimit'))).toEqual([]);
  expect(second.log).toMatchObject({ route: 'POST /api/v1/contacts', status: 401, dynamoCalls: 0, dynamoMs: 0 });
  expect(second.log).not.toHaveProperty('factoryId');
  expect(second.log).not.toHaveProperty('keyId');
  expect(second.metrics).toMatchObject({ [METRIC.dynamoCalls]: 0 });
  expect(snapshot(context)).toEqual(before);
});

test('ingest API: a request refused for its content type, after an accepted report on the same warm context, has no caller, client, log fields, counts or calls of the report', async () => {
  const factoryId = newFactoryId('state');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE]);
  const context = lambdaContext();
  const before = snapshot(context);
  const post = (contentType: string) =>
    proxyEvent({
      httpMethod: 'POST',
      path: EVENTS,
      headers: { Authorization: `Bearer ${key}`, Origin: SITE, 'Content-Type': contentType, 'User-Agent': 'state-test' },
      body: JSON.stringify({ events: [validEvent()] }),
      requestContext: { identity: { sourceIp: '127.66.77.88' } } as ReturnType<typeof proxyEvent>['requestContext'],
    });

  const first = await call(ingest, post('application/json'), context);
  expect(first.answer.statusCode).toBe(202);
  expect(first.log).toMatchObject({ route: `POST ${EVENTS}`, factoryId, keyId, origin: SITE, accepted: 1, clientNetwork: '127.66.77.0/24' });
  expect(first.metrics).toMatchObject({ [METRIC.eventsAccepted]: 1 });

  const second = await call(ingest, post('application/xml'), context);
  expect(second.answer.statusCode).toBe(415);
  expect(second.log).toMatchObject({ route: `POST ${EVENTS}`, status: 415, dynamoCalls: 0 });
  for (const field of ['factoryId', 'keyId', 'origin', 'accepted', 'duplicates', 'rejected', 'clientNetwork']) {
    expect(second.log).not.toHaveProperty(field);
  }
  expect(second.metrics).not.toHaveProperty(METRIC.eventsAccepted);
  expect(second.metrics).toMatchObject({ [METRIC.dynamoCalls]: 0 });
  expect(snapshot(context)).toEqual(before);
});
