import {
  ContactsApiError,
  ContactsClient,
  ContactsConfigError,
  ContactsNetworkError,
  ContactsTimeoutError,
  InvalidEmailError,
  contactId,
  type RateLimitStatus,
  type RetryEvent,
} from '../../client/src/index';
import { DEFAULT_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { startFaultyApi, stopFaultServers, type FaultyApi } from '../support/faults';
import { contactItems } from '../support/items';
import { issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/** The typed client (client/src) against the real API on DynamoDB Local. */
let api: LocalApi;
let faulty: FaultyApi;
beforeAll(async () => {
  [api, faulty] = await Promise.all([startLocalApi(), startFaultyApi()]);
});
afterEach(() => faulty.faults.clear());
afterAll(async () => {
  await Promise.all([api.close(), faulty.close()]);
  await stopFaultServers();
});

async function tenant(label: string, options: { rateLimit?: number } = {}) {
  const factoryId = newFactoryId(label);
  const { key } = await issueKey(factoryId, options);
  return { factoryId, key };
}

function clientOf(baseUrl: string, apiKey: string, options: Partial<ConstructorParameters<typeof ContactsClient>[0]> = {}) {
  const retries: RetryEvent[] = [];
  const client = new ContactsClient({ apiKey, baseUrl, onRetry: (event) => retries.push(event), ...options });
  return { client, retries };
}

describe('ContactsClient against the local API', () => {
  test('upsertContact creates the contact (created: true), then updates it (created: false)', async () => {
    const { key } = await tenant('client_upsert');
    const { client } = clientOf(api.baseUrl, key);
    const first = await client.upsertContact({ email: 'Ada@Example.com', name: 'Ada', companyDomain: 'https://www.acme.io/' });
    expect(first).toEqual({
      created: true,
      contact: expect.objectContaining({ email: 'ada@example.com', name: 'Ada', source: 'api', companyId: expect.stringMatching(/^co_/) }),
    });
    const second = await client.upsertContact({ email: 'ada@example.com', title: 'Analyst' });
    expect(second.created).toBe(false);
    expect(second.contact).toEqual({ ...first.contact, title: 'Analyst', updatedAt: expect.any(String) });
  });

  test('getContact returns the contact by id, and null for an id the factory does not have', async () => {
    const { key } = await tenant('client_get');
    const other = await tenant('client_get_other');
    const { client } = clientOf(api.baseUrl, key);
    const { contact } = await client.upsertContact({ email: 'grace@example.com', name: 'Grace' });
    expect(await client.getContact(contact.id)).toEqual(contact);
    expect(await client.getContact('ct_0000000000000000')).toBeNull();
    expect(await clientOf(api.baseUrl, other.key).client.getContact(contact.id)).toBeNull();
  });

  test('findContactByEmail finds the contact case-insensitively, and returns null when there is none', async () => {
    const { key } = await tenant('client_find');
    const { client } = clientOf(api.baseUrl, key);
    const { contact } = await client.upsertContact({ email: 'ada+crm@example.com' });
    expect(await client.findContactByEmail('ADA+CRM@example.com')).toEqual(contact);
    expect(await client.findContactByEmail('nobody@example.com')).toBeNull();
  });

  test("contactId computes offline the id the service gives, and refuses an address the service refuses with the service's message", async () => {
    const { factoryId, key } = await tenant('client_id');
    const { client } = clientOf(api.baseUrl, key);
    const { contact } = await client.upsertContact({ email: '  Mixed.Case@Example.COM ' });
    expect(await contactId(factoryId, '  Mixed.Case@Example.COM ')).toBe(contact.id);
    const refused = await client.upsertContact({ email: 'two@@example.com' }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ContactsApiError);
    await expect(contactId(factoryId, 'two@@example.com')).rejects.toEqual(new InvalidEmailError((refused as ContactsApiError).message));
  });

  test('an error answer is a ContactsApiError with the status, the message and the X-Request-Id', async () => {
    const { key } = await tenant('client_errors');
    const unknown = clientOf(api.baseUrl, 'dfsk_not_a_key_we_issued');
    const error = await unknown.client.getContact('ct_0123456789abcdef').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ContactsApiError);
    expect(error).toMatchObject({ status: 401, message: expect.stringMatching(/^Unknown API key/), requestId: expect.stringMatching(/.+/) });
    const invalid = await clientOf(api.baseUrl, key)
      .client.upsertContact({ email: 'ada@example.com', source: 'web' as never })
      .catch((caught: unknown) => caught);
    expect(invalid).toMatchObject({ status: 422, message: expect.stringMatching(/source must be one of/) });
    expect(unknown.retries).toEqual([]);
  });

  test('on 429 it waits Retry-After and sends the same request again, which succeeds', async () => {
    // 60 a minute: a burst of 7, then one a second (GCRA, lambda/kernel/rate-limit.ts).
    const { key } = await tenant('client_429', { rateLimit: 60 });
    const { client, retries } = clientOf(api.baseUrl, key);
    const written: boolean[] = [];
    for (let i = 0; i < 30 && retries.length === 0; i += 1) {
      written.push((await client.upsertContact({ email: `burst${i}@example.com` })).created);
    }
    expect(retries[0]).toEqual({
      operation: 'upsertContact',
      attempt: 1,
      delayMs: (retries[0]?.error as ContactsApiError).retryAfterSeconds! * 1000,
      error: expect.objectContaining({ status: 429, retryAfterSeconds: expect.any(Number) }),
    });
    expect(written.every(Boolean)).toBe(true);
  });

  test('tells onRateLimit where the key stands after each answer, and puts it on a ContactsApiError', async () => {
    // 60 a minute: a burst of 7 (GCRA, lambda/kernel/rate-limit.ts), each request taking one.
    const { key } = await tenant('client_rate', { rateLimit: 60 });
    const seen: { status: RateLimitStatus; operation: string }[] = [];
    const { client } = clientOf(api.baseUrl, key, { onRateLimit: (status, operation) => seen.push({ status, operation }) });
    await client.upsertContact({ email: 'ada@example.com' });
    expect(await client.getContact('ct_0123456789abcdef')).toBeNull();
    const invalid = await client.upsertContact({ email: 'not an address' }).catch((caught: unknown) => caught);
    expect(seen.map(({ operation }) => operation)).toEqual(['upsertContact', 'getContact', 'upsertContact']);
    for (const { status } of seen) expect(status).toMatchObject({ limit: 60, windowSeconds: 60, resetSeconds: expect.any(Number) });
    const remaining = seen.map(({ status }) => status.remaining);
    expect(remaining[1]).toBeLessThan(remaining[0] as number);
    expect(remaining[2]).toBeLessThan(remaining[1] as number);
    expect(invalid).toMatchObject({ status: 422, rateLimit: seen[2]?.status });
  });

  test('on 503 it retries, and the contact is written once', async () => {
    const { factoryId, key } = await tenant('client_503');
    // Applied, then the answer lost on every SDK attempt of the first request: the API answers 503.
    const lost = faulty.faults.inject({ call: 'contact-upsert', when: 'after', fault: 'service-unavailable', times: DEFAULT_DYNAMO_CONFIG.maxAttempts });
    const { client, retries } = clientOf(faulty.api.baseUrl, key);
    const { contact } = await client.upsertContact({ email: 'retry@example.com', name: 'Retry' });
    expect(lost.hits).toBe(DEFAULT_DYNAMO_CONFIG.maxAttempts);
    expect(retries).toEqual([
      expect.objectContaining({ attempt: 1, delayMs: expect.any(Number), error: expect.objectContaining({ status: 503, retryAfterSeconds: 1 }) }),
    ]);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(1000);
    const items = await contactItems(factoryId);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ sk: contact.id, name: 'Retry', createdAt: contact.createdAt });
  });

  test('a call that outlasts its timeoutMs fails with ContactsTimeoutError', async () => {
    const { key } = await tenant('client_timeout');
    faulty.faults.inject({ call: 'contact-read', when: 'before', fault: 'hang' });
    const { client } = clientOf(faulty.api.baseUrl, key);
    await expect(client.getContact('ct_0123456789abcdef', { timeoutMs: 300 })).rejects.toBeInstanceOf(ContactsTimeoutError);
  });

  test('an attempt without an answer within attemptTimeoutMs is retried as a network failure, up to maxAttempts', async () => {
    const { key } = await tenant('client_attempt');
    faulty.faults.inject({ call: 'contact-read', when: 'before', fault: 'hang' });
    const { client, retries } = clientOf(faulty.api.baseUrl, key, { attemptTimeoutMs: 200, maxAttempts: 2 });
    await expect(client.findContactByEmail('slow@example.com')).rejects.toBeInstanceOf(ContactsNetworkError);
    expect(retries).toEqual([expect.objectContaining({ operation: 'findContactByEmail', attempt: 1, error: expect.any(ContactsNetworkError) })]);
  });

  test('a refused connection is retried with a growing, jittered backoff, then fails with ContactsNetworkError', async () => {
    const { client, retries } = clientOf('http://127.0.0.1:1', 'dfsk_unused', { maxAttempts: 3 });
    await expect(client.getContact('ct_0123456789abcdef')).rejects.toBeInstanceOf(ContactsNetworkError);
    expect(retries.map((event) => event.attempt)).toEqual([1, 2]);
    expect(retries[0]?.delayMs).toBeGreaterThanOrEqual(125);
    expect(retries[0]?.delayMs).toBeLessThanOrEqual(250);
    expect(retries[1]?.delayMs).toBeGreaterThanOrEqual(250);
    expect(retries[1]?.delayMs).toBeLessThanOrEqual(500);
  });

  test("aborting the call's signal while a request is in flight rejects with the signal's reason", async () => {
    const { key } = await tenant('client_abort');
    const hang = faulty.faults.inject({ call: 'contact-read', when: 'before', fault: 'hang' });
    const { client } = clientOf(faulty.api.baseUrl, key);
    const controller = new AbortController();
    const reason = new Error('the caller gave up');
    const pending = client.getContact('ct_0123456789abcdef', { signal: controller.signal });
    while (hang.hits === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
  });

  test('a signal aborted before the call rejects at once, sending nothing', async () => {
    let sent = 0;
    const { client } = clientOf(api.baseUrl, 'dfsk_unused', { fetch: (...args) => ((sent += 1), fetch(...args)) });
    await expect(client.upsertContact({ email: 'a@example.com' }, { signal: AbortSignal.abort() })).rejects.toMatchObject({ name: 'AbortError' });
    expect(sent).toBe(0);
  });
});

describe('ContactsClient refuses what belongs elsewhere', () => {
  test('a publishable dfpk_ key is refused by the client itself, with a clear message', () => {
    expect(() => new ContactsClient({ apiKey: 'dfpk_abc', baseUrl: api.baseUrl })).toThrow(
      new ContactsConfigError(
        'apiKey is a publishable key (dfpk_…), which belongs to the browser-side bug-reporting API: the contacts API takes a secret key (dfsk_…), used on servers only.',
      ),
    );
  });

  test('a browser environment is refused by the client itself', () => {
    const global = globalThis as { document?: unknown };
    global.document = {};
    try {
      expect(() => new ContactsClient({ apiKey: 'dfsk_abc', baseUrl: api.baseUrl })).toThrow(/runs on servers only/);
    } finally {
      delete global.document;
    }
  });

  test('a base URL that is not an absolute http(s) URL is refused', () => {
    expect(() => new ContactsClient({ apiKey: 'dfsk_abc', baseUrl: '/api' })).toThrow(ContactsConfigError);
    expect(() => new ContactsClient({ apiKey: 'dfsk_abc', baseUrl: 'ftp://example.com' })).toThrow(ContactsConfigError);
  });

  test('a base URL with a stage path keeps it', async () => {
    const seen: string[] = [];
    const { client } = clientOf('https://api.example.com/prod', 'dfsk_abc', {
      fetch: async (input) => {
        seen.push(String(input));
        return new Response('{"error":"no"}', { status: 404, headers: { 'Content-Type': 'application/json' } });
      },
    });
    await client.findContactByEmail('a+b@example.com');
    expect(seen).toEqual(['https://api.example.com/prod/api/v1/contacts?email=a%2Bb%40example.com']);
  });
});
