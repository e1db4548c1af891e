import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import { format } from 'node:util';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { generateKey } from '../../lambda/kernel/api-key';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { freePort } from '../../local/harness/ports';
import type { FuzzRequest } from '../../tools/fuzz/request';
import { invoke, sendRaw, type FuzzResponse } from '../../tools/fuzz/transport';
import { issueKey, newFactoryId, revokeKey, tables, testDoc } from '../support/local-api';

/**
 * Keys in every place a caller could put one, in every state a key can be
 * in, with the handler logging at DEBUG: no log line, error body or exception
 * may hold a key. Logs are caught at process.stdout/stderr.write (where the
 * logger and the metrics write) and at console.*, whatever the log format.
 */

interface Handlers {
  /** The Lambda entry point (lambda/contacts/api/contacts-entry.ts), configured from the environment. */
  entry: ApiHandler;
  /** The same API with DynamoDB out of reach: the key check itself fails. */
  storeDown: ApiHandler;
  /** The key check works; the contacts table is out of reach. */
  contactsDown: ApiHandler;
}

/** Loads the API with LOG_LEVEL=DEBUG (and metrics on): its logger reads the level once, at load. */
async function loadLoudHandlers(): Promise<Handlers> {
  const saved = { level: process.env.LOG_LEVEL, metrics: process.env.POWERTOOLS_METRICS_DISABLED };
  process.env.LOG_LEVEL = 'DEBUG';
  process.env.POWERTOOLS_METRICS_DISABLED = 'false';
  try {
    let handlers: Handlers | undefined;
    await jest.isolateModulesAsync(async () => {
      const { handler } = await import('../../lambda/contacts/api/contacts-entry');
      const { createContactsHandler } = await import('../../lambda/contacts/api/routes');
      const { createDocumentClient, DEFAULT_DYNAMO_CONFIG } = await import('../../lambda/infrastructure/store/dynamo-client');
      const { DynamoContactStore } = await import('../../lambda/infrastructure/store/contacts/dynamo-contact-store');
      const { DynamoKeyAuthorizer } = await import('../../lambda/infrastructure/store/keys/dynamo-key-authorizer');
      const closed = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: `http://127.0.0.1:${await freePort()}` });
      const live = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: process.env.DYNAMODB_ENDPOINT, requestTimeoutMs: 10_000 });
      handlers = {
        entry: handler,
        storeDown: createContactsHandler({ contacts: new DynamoContactStore(closed, tables.contacts), keys: new DynamoKeyAuthorizer(closed, tables.keys) }),
        contactsDown: createContactsHandler({ contacts: new DynamoContactStore(closed, tables.contacts), keys: new DynamoKeyAuthorizer(live, tables.keys) }),
      };
    });
    return handlers as Handlers;
  } finally {
    process.env.LOG_LEVEL = saved.level;
    process.env.POWERTOOLS_METRICS_DISABLED = saved.metrics;
  }
}

/** Everything written to stdout, stderr or the console while `work` runs. */
async function captureOutput<T>(work: () => Promise<T>): Promise<{ result: T; output: string }> {
  const chunks: string[] = [];
  const grab = (chunk: unknown): boolean => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
    return true;
  };
  const writes = { out: process.stdout.write, err: process.stderr.write };
  process.stdout.write = grab as typeof process.stdout.write;
  process.stderr.write = grab as typeof process.stderr.write;
  const spies = (['log', 'info', 'warn', 'error', 'debug', 'trace'] as const).map((method) =>
    jest.spyOn(console, method).mockImplementation((...args: unknown[]) => void grab(`${format(...args)}\n`)),
  );
  try {
    const result = await work();
    return { result, output: chunks.join('') };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
    for (const spy of spies) spy.mockRestore();
  }
}

type Place = (key: string, auth: [string, string]) => Omit<FuzzRequest, 'body'> & { body?: string };

const ID = 'ct_0123456789abcdef';
/** Every place a caller could put a key. `auth` is a working Authorization field, for places past the key check. */
const PLACES: Record<string, Place> = {
  'Authorization: Bearer': (k) => ({ method: 'GET', target: `/api/v1/contacts/${ID}`, headers: [['Authorization', `Bearer ${k}`]] }),
  'Authorization: bearer, odd spacing': (k) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [['authorization', `  bearer   ${k} `]],
    body: '{"email":"a@b.co"}',
  }),
  'Authorization: Basic': (k) => ({
    method: 'GET',
    target: '/api/v1/contacts',
    headers: [['Authorization', `Basic ${Buffer.from(`${k}:`).toString('base64')}`]],
  }),
  'Authorization: Basic <key>': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Basic ${k}`]] }),
  'Authorization: the key alone': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', k]] }),
  'Authorization: Token': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Token ${k}`]] }),
  'Authorization: key and more': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Bearer ${k} ${k}`]] }),
  'Authorization: key glued': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Bearer x${k}`]] }),
  'Authorization: quoted': (k) => ({ method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Bearer "${k}"`]] }),
  'Authorization: twice': (k) => ({
    method: 'GET',
    target: '/api/v1/contacts',
    headers: [
      ['Authorization', `Bearer ${k}`],
      ['authorization', `Bearer ${k}`],
    ],
  }),
  'X-Api-Key alone': (k) => ({ method: 'GET', target: '/api/v1/contacts?email=a%40b.co', headers: [['X-Api-Key', k]] }),
  'X-Api-Key beside a working key': (k, auth) => ({ method: 'GET', target: '/api/v1/contacts?email=a%40b.co', headers: [auth, ['X-Api-Key', k]] }),
  'Cookie, Referer, User-Agent, Proxy-Authorization': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth, ['Cookie', `session=${k}`], ['Referer', `https://app.example/?key=${k}`], ['User-Agent', k], ['Proxy-Authorization', `Bearer ${k}`]],
    body: '{"email":"nope"}',
  }),
  Origin: (k, auth) => ({ method: 'GET', target: '/api/v1/contacts', headers: [auth, ['Origin', k]] }),
  'query ?key=': (k) => ({ method: 'GET', target: `/api/v1/contacts?email=a%40b.co&key=${k}`, headers: [] }),
  'query ?api_key= beside a working key': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts?api_key=${k}`, headers: [auth] }),
  'query ?email=<key>': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts?email=${k}`, headers: [auth] }),
  'query ?email=x<key>': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts?email=x${k}`, headers: [auth] }),
  'query ?email=<key>@example.com': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts?email=${k}%40example.com`, headers: [auth] }),
  'query ?email twice': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts?email=${k}&email=_${k}`, headers: [auth] }),
  'path: as the id': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts/${k}`, headers: [auth] }),
  'path: glued to the id': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts/_${k}`, headers: [auth] }),
  'path: percent-encoded id': (k, auth) => ({ method: 'GET', target: `/api/v1/contacts/x${k.replace('_', '%5F')}`, headers: [auth] }),
  'path: unknown endpoint': (k, auth) => ({ method: 'GET', target: `/${k}/x${k}`, headers: [auth] }),
  'path: wrong method': (k, auth) => ({ method: 'DELETE', target: `/api/v1/contacts/${k}`, headers: [auth] }),
  method: (k, auth) => ({ method: `x${k}`, target: '/api/v1/contacts', headers: [auth] }),
  'body: email': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: JSON.stringify({ email: k }) }),
  'body: email glued': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: JSON.stringify({ email: `x${k}@` }) }),
  'body: source': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: JSON.stringify({ email: 'a@b.co', source: k }) }),
  'body: source glued': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth],
    body: JSON.stringify({ email: 'a@b.co', source: `x${k}` }),
  }),
  'body: companyDomain': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth],
    body: JSON.stringify({ email: 'a@b.co', companyDomain: k }),
  }),
  'body: companyDomain URL': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth],
    body: JSON.stringify({ email: 'a@b.co', companyDomain: `https://${k}/` }),
  }),
  'body: wrong type beside it': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth],
    body: JSON.stringify({ email: 'a@b.co', name: [k], title: { k } }),
  }),
  'body: unknown field and field name': (k, auth) => ({
    method: 'POST',
    target: '/api/v1/contacts',
    headers: [auth],
    body: JSON.stringify({ email: 7, apiKey: k, [k]: k }),
  }),
  'body: broken JSON': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: `{"email": ${k}}` }),
  'body: broken JSON, glued': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: `{"email":x${k}` }),
  'body: the key alone': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: k }),
  'body: form-encoded': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: `key=${k}&email=a%40b.co` }),
  'body: a JSON string': (k, auth) => ({ method: 'POST', target: '/api/v1/contacts', headers: [auth], body: JSON.stringify(k) }),
};

/** Places a storage failure is reached from: the key itself, and a body or path past a working key. */
const DURING_FAILURE = ['Authorization: Bearer', 'body: source', 'body: email', 'path: as the id', 'query ?email=<key>'];

const asRequest = (place: Place, key: string, auth: [string, string]): FuzzRequest => {
  const { body, ...rest } = place(key, auth);
  return { ...rest, body: Buffer.from(body ?? '', 'utf8') };
};

interface Sent {
  label: string;
  response?: FuzzResponse;
  error?: unknown;
}

async function sendAll(handler: ApiHandler, requests: [string, FuzzRequest][]): Promise<Sent[]> {
  const sent: Sent[] = [];
  // A few at a time: quick, and the throttled key still sees its limit.
  for (let i = 0; i < requests.length; i += 8) {
    const batch = requests.slice(i, i + 8);
    sent.push(
      ...(await Promise.all(
        batch.map(async ([label, request]) => {
          try {
            return { label, response: await invoke(handler, request) };
          } catch (error) {
            return { label, error };
          }
        }),
      )),
    );
  }
  return sent;
}

describe('secret keys never leave the service', () => {
  const doc = testDoc();
  let factoryId: string;
  let keys: Record<'active' | 'throttled' | 'revoked' | 'publishable' | 'unknown', string>;
  let handlers: Handlers;
  beforeAll(async () => {
    factoryId = newFactoryId('secrets');
    const revoked = await issueKey(factoryId);
    await revokeKey(revoked.keyId);
    keys = {
      active: (await issueKey(factoryId)).key,
      throttled: (await issueKey(factoryId, { rateLimit: 1 })).key,
      revoked: revoked.key,
      publishable: (await issueKey(factoryId, { type: 'publishable', origins: ['https://www.example.com'] })).key,
      unknown: generateKey('secret').secret,
    };
    handlers = await loadLoudHandlers();
  });

  test('keys in every place and every state: no log line, error body or exception holds one, and the logs were really written', async () => {
    const auth: [string, string] = ['Authorization', `Bearer ${keys.active}`];
    const secrets = Object.values(keys);
    const everywhere = (handlerLabel: string, key: string, places: string[]) =>
      places.map((place): [string, FuzzRequest] => [`${handlerLabel}, ${place}`, asRequest(PLACES[place] as Place, key, auth)]);

    let server: Server | undefined;
    const { result, output } = await captureOutput(async () => {
      const sent: Sent[] = [];
      for (const [state, key] of Object.entries(keys)) sent.push(...(await sendAll(handlers.entry, everywhere(state, key, Object.keys(PLACES)))));
      sent.push(...(await sendAll(handlers.storeDown, everywhere('store down', keys.active, DURING_FAILURE))));
      sent.push(...(await sendAll(handlers.contactsDown, everywhere('contacts table down', keys.active, DURING_FAILURE))));
      // Through the HTTP adapter: what only raw bytes can carry (the adapter answers these itself or passes them on).
      server = createHttpAdapter(handlers.entry);
      const port = await listen(server, 0, '127.0.0.1');
      const raw: [string, FuzzRequest][] = [
        [
          'http, key in a huge header',
          { method: 'GET', target: '/api/v1/contacts', headers: [auth, ['X-Huge', `${keys.active}${'a'.repeat(20_000)}`]], body: Buffer.alloc(0) },
        ],
        ['http, key in a malformed request line', { method: 'GET', target: `/api/v1/contacts/${keys.active} x`, headers: [auth], body: Buffer.alloc(0) }],
        [
          'http, key next to bytes that are not UTF-8',
          { method: 'GET', target: '/api/v1/contacts', headers: [['Authorization', `Bearer ${keys.active}\u00ff`]], body: Buffer.alloc(0) },
        ],
        ['http, CONNECT to the key', { method: 'CONNECT', target: `/${keys.active}`, headers: [auth], body: Buffer.alloc(0) }],
      ];
      for (const [label, request] of raw) {
        try {
          sent.push({ label, response: await sendRaw(port, request) });
        } catch (error) {
          sent.push({ label, error });
        }
      }
      return sent;
    });
    await new Promise((resolve) => server?.close(resolve));

    const problems: string[] = [];
    const leaks = (text: string) => secrets.some((key) => text.includes(key) || text.includes(key.slice(5)));
    for (const { label, response, error } of result) {
      if (error !== undefined) {
        problems.push(`${label}: threw ${String(error)}`);
        if (leaks(error instanceof Error ? `${error.message}${error.stack}` : String(error))) problems.push(`${label}: the exception holds a key`);
      }
      if (response && response.status >= 400 && leaks(response.body)) problems.push(`${label}: ${response.status} body holds a key: ${response.body}`);
      if (response && response.status >= 500 && response.status !== 503) problems.push(`${label}: answered ${response.status}`);
    }
    for (const line of output.split('\n')) if (leaks(line)) problems.push(`a log line holds a key: ${line.slice(0, 300)}`);
    expect(problems).toEqual([]);

    // Not vacuous: every state and failure was reached, and every answer the handler gave was logged.
    const statuses = (prefix: string) => result.filter((s) => s.label.startsWith(prefix)).map((s) => s.response?.status);
    expect(statuses('active')).toEqual(expect.arrayContaining([201, 400, 401, 403, 404, 405, 422]));
    expect(statuses('throttled')).toContain(429);
    expect(new Set(statuses('revoked, Authorization: Bearer'))).toEqual(new Set([401]));
    expect(new Set(statuses('publishable, Authorization: Bearer'))).toEqual(new Set([401]));
    expect(statuses('store down')).toContain(503);
    expect(statuses('contacts table down')).toContain(503);
    expect(statuses('http')).toEqual(expect.arrayContaining([431, 400]));
    const requestIds = result.map((s) => s.response?.headers['x-request-id']).filter((id): id is string => id !== undefined);
    expect(requestIds.length).toBeGreaterThan(200);
    expect(requestIds.filter((id) => !output.includes(id))).toEqual([]);
  }, 60_000);

  test('the keys table stores a hash of each key, never the key', async () => {
    const items =
      (await doc.send(new ScanCommand({ TableName: tables.keys, FilterExpression: 'factoryId = :f', ExpressionAttributeValues: { ':f': factoryId } }))).Items ??
      [];
    const issued = [keys.active, keys.throttled, keys.revoked, keys.publishable];
    expect(items.map((item) => item.keyHash).sort()).toEqual(issued.map((k) => createHash('sha256').update(k).digest('hex')).sort());
    const stored = JSON.stringify(items);
    for (const key of issued) {
      expect(stored).not.toContain(key.slice(5));
    }
  });
});
