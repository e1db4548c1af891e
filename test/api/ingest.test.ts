import { randomUUID } from 'node:crypto';
import { factoryItems, tableItems } from '../support/items';
import { corsOf, EVENTS, FEATURE_REQUESTS, featureRequest, ingestTenant, randomClient, SITE, storedReports, validEvent } from '../support/ingest';
import { bearer, issueKey, listKeys, newFactoryId, revokeKey, startLocalApi, tables, type LocalApi } from '../support/local-api';

/**
 * The ingest contract (docs/ingest-api.md) row by row, over HTTP on the
 * host `npm start` serves: the ingest API under /ingest/v1/ beside the
 * contacts API. Runs in `npm test` on the sources and again on the
 * synthesized assets (jest.bundle.config.js).
 */
let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

const EXPOSED = 'Retry-After, X-Request-Id';

/** The CORS headers every answer to a POST from `origin` carries. */
function expectCors(res: { headers: Record<string, unknown> }, origin: string) {
  expect(corsOf(res as never)).toEqual({ 'access-control-allow-origin': origin, 'access-control-expose-headers': EXPOSED });
  expect(res.headers.vary).toBe('Origin');
}

describe('POST /ingest/v1/events: 202 with counts', () => {
  test('stores each event with what the server adds, and answers what it stored', async () => {
    const tenant = await ingestTenant(api);
    const event = validEvent({
      timestamp: '2026-11-24T10:00:00+01:00',
      exception: { type: 'TypeError', value: 'x is undefined', stack: 'at f (app.js:1:2)\n at g (app.js:3:4)' },
      pageUrl: 'https://app.example.com/settings',
      release: 'web@1.4.2',
      tags: { plan: 'pro' },
      reporter: { email: 'ada@example.com', name: 'Ada' },
    });
    const res = await tenant.events([event], { headers: { 'User-Agent': 'Mozilla/5.0 (test)' } });
    expect(res.status).toBe(202);
    expect(res.json).toEqual({ accepted: 1, duplicates: 0, rejected: [] });
    const [stored] = await storedReports(tenant.factoryId);
    expect(stored).toEqual({
      factoryId: tenant.factoryId,
      keyId: tenant.keyId,
      eventId: event.eventId,
      type: 'error',
      timestamp: '2026-11-24T09:00:00.000Z',
      message: event.message,
      exception: event.exception,
      pageUrl: event.pageUrl,
      release: event.release,
      tags: { plan: 'pro' },
      reporter: { email: 'ada@example.com', name: 'Ada' },
      origin: SITE,
      userAgent: 'Mozilla/5.0 (test)',
      receivedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      // The issue it was grouped into (docs/report-issues.md).
      issueId: expect.stringMatching(/^iss_[0-9a-f]{20}$/),
      // Its visitor's hash for the day (docs/report-issues.md#visitors-affected).
      visitor: expect.stringMatching(/^[A-Za-z0-9_-]{8}$/),
      // No resolved frames: a file with no URL is none of the site's scripts, so nothing needs a map (docs/source-maps.md#resolving).
    });
  });

  test('stores no key and no client address, only a hash of it on the limiter item', async () => {
    const tenant = await ingestTenant(api);
    const from = randomClient();
    expect((await tenant.events([validEvent()], { from })).status).toBe(202);
    const text = JSON.stringify(await tableItems(tables.reports));
    expect(text).not.toContain(tenant.key);
    expect(text).not.toContain(tenant.key.slice(5));
    expect(text).not.toContain(from);
  });

  test('takes the key in ?key= and a text/plain body, as navigator.sendBeacon sends them', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([validEvent()], { keyIn: 'query', contentType: 'text/plain;charset=UTF-8' });
    expect(res.status).toBe(202);
    expect(res.json.accepted).toBe(1);
  });

  test('takes the same key in the header and in ?key=', async () => {
    const tenant = await ingestTenant(api);
    expect((await tenant.events([validEvent()], { keyIn: 'both' })).status).toBe(202);
  });

  test('the same eventId again is a duplicate, stored once', async () => {
    const tenant = await ingestTenant(api);
    const event = validEvent();
    await tenant.events([event]);
    const again = await tenant.events([{ ...event, message: 'changed' }]);
    expect(again.json).toEqual({ accepted: 0, duplicates: 1, rejected: [] });
    const stored = await storedReports(tenant.factoryId);
    expect(stored.map((e) => e.message)).toEqual([event.message]);
  });

  test('dedupe ignores the case of an eventId', async () => {
    const tenant = await ingestTenant(api);
    const eventId = randomUUID();
    await tenant.events([validEvent({ eventId })]);
    expect((await tenant.events([validEvent({ eventId: eventId.toUpperCase() })])).json.duplicates).toBe(1);
  });

  test('two events with one eventId in one request: one accepted, one duplicate', async () => {
    const tenant = await ingestTenant(api);
    const eventId = randomUUID();
    const res = await tenant.events([validEvent({ eventId }), validEvent({ eventId })]);
    expect(res.json).toEqual({ accepted: 1, duplicates: 1, rejected: [] });
  });

  test('50 concurrent retries of one beacon store it once: one accepted, 49 duplicates', async () => {
    // A key of 6,000 a minute: one error may take half, a burst of 301 (the default key's burst for one error is 31), and this is about the store.
    const tenant = await ingestTenant(api, [SITE], 'ing', 6000);
    const event = validEvent();
    // From 50 addresses: one address is held to 60 a minute with a burst of 7.
    const answers = await Promise.all(Array.from({ length: 50 }, () => tenant.events([event], { keyIn: 'query', contentType: 'text/plain;charset=UTF-8' })));
    expect(answers.map((res) => res.status)).toEqual(Array(50).fill(202));
    expect(answers.reduce((sum, res) => sum + res.json.accepted, 0)).toBe(1);
    expect(answers.reduce((sum, res) => sum + res.json.duplicates, 0)).toBe(49);
    expect(await storedReports(tenant.factoryId)).toHaveLength(1);
  });

  test('each event is validated on its own: the valid ones are stored, the invalid ones listed by index', async () => {
    const tenant = await ingestTenant(api);
    const good = [validEvent(), validEvent({ type: 'bug_report' })];
    const res = await tenant.events([
      good[0],
      { eventId: 'not-a-uuid', message: 'x' },
      { eventId: randomUUID() },
      good[1],
      { eventId: randomUUID(), message: 'x', type: 'fatal' },
      'not an object',
    ]);
    expect(res.status).toBe(202);
    expect(res.json.accepted).toBe(2);
    expect(res.json.rejected).toEqual([
      { index: 1, error: expect.stringMatching(/eventId must be a UUID/) },
      { index: 2, error: expect.stringMatching(/needs a message or an exception/) },
      { index: 4, error: expect.stringMatching(/type must be one of error, bug_report, message/) },
      { index: 5, error: expect.stringMatching(/must be a JSON object/) },
    ]);
    expectCors(res, SITE);
    const stored = await storedReports(tenant.factoryId);
    expect(stored.map((e) => e.eventId).sort()).toEqual(good.map((e) => e.eventId).sort());
  });

  test('a field of the wrong type rejects its event; unknown fields are ignored', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([
      validEvent({ message: 42 }),
      validEvent({ tags: { plan: 3 } }),
      validEvent({ exception: 'boom' }),
      validEvent({ reporter: { email: ['a'] } }),
      validEvent({ timestamp: 'yesterday' }),
      validEvent({ extra: { anything: true }, factoryId: 'fac_victim', receivedAt: '1999-01-01T00:00:00Z' }),
    ]);
    expect(res.json.rejected.map((r: { index: number }) => r.index)).toEqual([0, 1, 2, 3, 4]);
    expect(res.json.rejected.map((r: { error: string }) => r.error)).toEqual([
      expect.stringMatching(/message must be a string/),
      expect.stringMatching(/tags\.plan must be a string/),
      expect.stringMatching(/exception must be an object/),
      expect.stringMatching(/reporter\.email must be a string/),
      expect.stringMatching(/timestamp must be an ISO 8601 time/),
    ]);
    const [stored] = await storedReports(tenant.factoryId);
    expect(stored).not.toHaveProperty('extra');
    expect(stored!.factoryId).toBe(tenant.factoryId);
    expect(stored!.receivedAt).not.toBe('1999-01-01T00:00:00Z');
  });

  test('free text is clipped at the contract limits, never refused for length', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([
      validEvent({
        message: 'm'.repeat(9000),
        exception: { type: 't'.repeat(300), value: 'v'.repeat(3000), stack: 's'.repeat(20_000) },
        pageUrl: `https://app.example.com/${'p'.repeat(3000)}`,
        release: 'r'.repeat(300),
        tags: { ['k'.repeat(100)]: 'v'.repeat(300) },
        reporter: { email: `${'e'.repeat(300)}@example.com`, name: 'n'.repeat(300) },
      }),
    ]);
    expect(res.json.accepted).toBe(1);
    const [stored] = await storedReports(tenant.factoryId);
    expect(stored!.message).toHaveLength(8192);
    expect([stored!.exception.type.length, stored!.exception.value.length, stored!.exception.stack.length]).toEqual([200, 2048, 16_384]);
    expect([stored!.pageUrl.length, stored!.release.length]).toEqual([2048, 200]);
    expect(Object.entries(stored!.tags).map(([k, v]) => [k.length, (v as string).length])).toEqual([[64, 200]]);
    expect([stored!.reporter.email.length, stored!.reporter.name.length]).toEqual([254, 200]);
  });

  test('more than 50 tags, or a lone surrogate, rejects the event and says why', async () => {
    const tenant = await ingestTenant(api);
    const tags = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`t${i}`, 'x']));
    const res = await tenant.post(EVENTS, undefined, {
      raw: JSON.stringify({ events: [validEvent({ tags }), validEvent({ message: 'x' }), validEvent()] }).replace('"message":"x"', '"message":"a\\ud800b"'),
    });
    expect(res.json.accepted).toBe(1);
    expect(res.json.rejected).toEqual([
      { index: 0, error: expect.stringMatching(/tags has 51 entries: at most 50/) },
      { index: 1, error: expect.stringMatching(/message is not well-formed Unicode/) },
    ]);
  });

  test('controls and bidi overrides are removed from free text; the type defaults to error', async () => {
    const tenant = await ingestTenant(api);
    await tenant.events([{ eventId: randomUUID(), message: 'a\u0000b\u202Ec\u0085d\ne' }]);
    const [stored] = await storedReports(tenant.factoryId);
    expect(stored).toMatchObject({ message: 'abcd\ne', type: 'error' });
  });

  test('an email in a report never creates or changes a contact', async () => {
    const tenant = await ingestTenant(api);
    await tenant.events([validEvent({ reporter: { email: 'visitor@example.com' } })]);
    await tenant.featureRequest(featureRequest({ reporter: { email: 'visitor@example.com' } }));
    expect(await factoryItems(tenant.factoryId)).toEqual([]);
  });
});

describe('POST /ingest/v1/events: 422 for the request as a whole', () => {
  test.each([
    ['events missing', {}, /events is required/],
    ['events not an array', { events: { eventId: 'x' } }, /events must be an array/],
    ['events empty', { events: [] }, /events is empty/],
    ['over 20 events', { events: Array.from({ length: 21 }, () => validEvent()) }, /events has 21 entries: at most 20/],
    ['no valid event', { events: [{ eventId: 'nope' }] }, /no valid event in this request: events\[0\]: eventId must be a UUID/],
    ['a body that is not an object', [validEvent()], /must be a JSON object/],
  ])('%s', async (_, body, message) => {
    const tenant = await ingestTenant(api);
    const res = await tenant.post(EVENTS, body);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: expect.stringMatching(message) });
    expectCors(res, SITE);
    expect(await storedReports(tenant.factoryId)).toEqual([]);
  });
});

describe('POST /ingest/v1/feature-requests', () => {
  test('201 with created: true, then 200 with the request as first stored and created: false', async () => {
    const tenant = await ingestTenant(api);
    const body = featureRequest({ description: 'Please', category: 'ui', pageUrl: 'https://app.example.com/', reporter: { name: 'Ada' } });
    const first = await tenant.featureRequest(body);
    expect(first.status).toBe(201);
    expect(first.json).toEqual({
      featureRequest: { id: expect.stringMatching(/^fr_[0-9a-f]{16}$/), title: 'Dark mode', createdAt: expect.any(String) },
      created: true,
    });
    expectCors(first, SITE);
    const again = await tenant.featureRequest({ ...body, title: 'Something else' });
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ featureRequest: first.json.featureRequest, created: false });
    const stored = await storedReports(tenant.factoryId, 'feature-requests');
    expect(stored).toEqual([
      expect.objectContaining({
        id: first.json.featureRequest.id,
        requestId: body.requestId,
        title: 'Dark mode',
        description: 'Please',
        category: 'ui',
        origin: SITE,
      }),
    ]);
  });

  test.each([
    ['a title under 3 characters after trimming', featureRequest({ title: '  ab  ' }), /title must have at least 3 characters/],
    ['no title', { requestId: randomUUID() }, /title is required/],
    ['no requestId', { title: 'Dark mode' }, /requestId is required/],
    ['a requestId that is not a UUID', featureRequest({ requestId: '42' }), /requestId must be a UUID/],
    ['a description of the wrong type', featureRequest({ description: 7 }), /description must be a string/],
  ])('422 for %s', async (_, body, message) => {
    const tenant = await ingestTenant(api);
    const res = await tenant.featureRequest(body);
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(message);
  });

  test('a long title is clipped to 140 characters', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.featureRequest(featureRequest({ title: 't'.repeat(500) }));
    expect(res.status).toBe(201);
    expect(res.json.featureRequest.title).toHaveLength(140);
  });

  test('10 per hour per key and address, with a burst of 2: then 429 with Retry-After, readable through CORS', async () => {
    const tenant = await ingestTenant(api);
    const from = randomClient();
    const statuses = [];
    for (let i = 0; i < 2; i += 1) statuses.push((await tenant.featureRequest(featureRequest(), { from })).status);
    const limited = await tenant.featureRequest(featureRequest(), { from });
    expect(statuses).toEqual([201, 201]);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(60);
    expect(limited.json.error).toMatch(/Too many feature requests from your address/);
    expectCors(limited, SITE);
    // Another address of the same key, and events from this one, are still fine.
    expect((await tenant.featureRequest(featureRequest(), { from: randomClient() })).status).toBe(201);
    expect((await tenant.events([validEvent()], { from })).status).toBe(202);
  });
});

describe('CORS', () => {
  test('a preflight answers 204 for any origin, without a key, with the contract headers and no credentials', async () => {
    for (const path of [EVENTS, FEATURE_REQUESTS]) {
      const res = await api.request('OPTIONS', path, {
        headers: {
          Origin: 'https://anywhere.example',
          'Access-Control-Request-Method': 'POST',
          'Access-Control-Request-Headers': 'authorization,content-type',
        },
      });
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(corsOf(res)).toEqual({
        'access-control-allow-origin': 'https://anywhere.example',
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '7200',
      });
      expect(res.headers.vary).toBe('Origin');
    }
  });

  test('every answer to a POST from an allowed origin, errors included, echoes it with Vary and the exposed headers', async () => {
    const tenant = await ingestTenant(api);
    const answers = await Promise.all([
      tenant.events([validEvent()]),
      tenant.post(EVENTS, undefined, { raw: '{' }),
      tenant.post(EVENTS, { events: [] }),
      tenant.post(EVENTS, undefined, { contentType: 'application/xml', raw: '<x/>' }),
      tenant.post(EVENTS, { events: [validEvent()] }, { key: 'dfpk_unknownunknownunknown' }),
      tenant.featureRequest(featureRequest()),
    ]);
    expect(answers.map((res) => res.status)).toEqual([202, 400, 422, 415, 401, 201]);
    for (const res of answers) {
      expectCors(res, SITE);
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
  });

  test('no Access-Control-* header without an Origin, and none on the contacts API', async () => {
    const tenant = await ingestTenant(api);
    const ingest = await tenant.events([validEvent()], { origin: null });
    expect(corsOf(ingest)).toEqual({});
    const contacts = await api.request('OPTIONS', '/api/v1/contacts', { headers: { Origin: SITE, 'Access-Control-Request-Method': 'POST' } });
    expect(contacts.status).toBe(403);
    expect(corsOf(contacts)).toEqual({});
  });
});

describe('keys and origins: 401, 403', () => {
  const expect401 = (res: { status: number; json: any; headers: Record<string, unknown> }, message: RegExp) => {
    expect(res.status).toBe(401);
    expect(res.json).toEqual({ error: expect.stringMatching(message) });
    expect(res.headers['www-authenticate']).toBe('Bearer realm="ingest"');
  };

  test('a missing, unknown, malformed or revoked key', async () => {
    const tenant = await ingestTenant(api);
    const body = { events: [validEvent()] };
    expect401(await api.request('POST', EVENTS, { headers: { Origin: SITE, 'Content-Type': 'application/json' }, body }), /Missing API key/);
    expect401(await tenant.post(EVENTS, body, { key: `dfpk_${'A'.repeat(43)}` }), /Unknown API key/);
    expect401(await tenant.post(EVENTS, body, { key: 'dfpk_short' }), /Unknown API key/);
    expect401(await tenant.post(EVENTS, body, { key: 'pk_live_123', keyIn: 'query' }), /Unknown API key/);
    const revoked = await ingestTenant(api);
    await revokeKey(revoked.keyId);
    expect401(await revoked.events([validEvent()]), /revoked/);
  });

  test('a key in the header and a different one in ?key=, or a key sent twice', async () => {
    const tenant = await ingestTenant(api);
    const other = await ingestTenant(api);
    const conflicting = await api.request('POST', `${EVENTS}?key=${other.key}`, {
      headers: { Origin: SITE, 'Content-Type': 'application/json', ...bearer(tenant.key) },
      body: { events: [validEvent()] },
    });
    expect401(conflicting, /differ/);
    const twice = await api.request('POST', `${EVENTS}?key=${tenant.key}&key=${tenant.key}`, {
      headers: { Origin: SITE, 'Content-Type': 'text/plain' },
      body: { events: [validEvent()] },
    });
    expect401(twice, /Send the key once/);
  });

  test('a secret key is refused exactly like an unknown key, and marked as exposed, first and last sighting counted', async () => {
    const factoryId = newFactoryId('exposed');
    const secret = await issueKey(factoryId);
    const tenant = await ingestTenant(api);
    const unknown = await tenant.post(EVENTS, { events: [validEvent()] }, { key: `dfsk_${'Q'.repeat(43)}` });
    const viaHeader = await tenant.post(EVENTS, { events: [validEvent()] }, { key: secret.key });
    const viaQuery = await tenant.post(FEATURE_REQUESTS, featureRequest(), { key: secret.key, keyIn: 'query' });
    for (const res of [viaHeader, viaQuery]) {
      expect(res.status).toBe(401);
      expect(res.json).toEqual(unknown.json);
      expect(res.headers['www-authenticate']).toBe(unknown.headers['www-authenticate']);
      expect(res.text).not.toContain(secret.key.slice(5, 20));
    }
    const [listed] = await listKeys(factoryId);
    expect(listed).toMatchObject({
      keyId: secret.keyId,
      status: 'active',
      exposed: { count: 2, firstSeenAt: expect.any(String), lastSeenAt: expect.any(String) },
    });
    expect(listed!.exposed!.lastSeenAt >= listed!.exposed!.firstSeenAt).toBe(true);
    // Not revoked: it still works on the contacts API.
    expect((await api.request('GET', '/api/v1/contacts?email=a%40b.co', { headers: bearer(secret.key) })).status).toBe(404);
  });

  test('a publishable key on the contacts API is 401 like an unknown key, and marks nothing', async () => {
    const tenant = await ingestTenant(api);
    const res = await api.request('POST', '/api/v1/contacts', { headers: bearer(tenant.key), body: { email: 'a@example.com' } });
    const unknown = await api.request('POST', '/api/v1/contacts', { headers: bearer(`dfsk_${'Z'.repeat(43)}`), body: { email: 'a@example.com' } });
    expect(res.status).toBe(401);
    expect(res.json).toEqual(unknown.json);
    const [listed] = await listKeys(tenant.factoryId);
    expect(listed).not.toHaveProperty('exposed');
  });

  test('a POST without Origin is 403, with no CORS header to give', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([validEvent()], { origin: null });
    expect(res.status).toBe(403);
    expect(res.json.error).toMatch(/Missing Origin header/);
  });

  test('an origin not on the list is 403 naming it, readable by that page (CORS headers on the refusal)', async () => {
    const tenant = await ingestTenant(api);
    for (const origin of ['https://evil.example', 'https://app.example.com:8443', 'http://app.example.com', 'null']) {
      const res = await tenant.events([validEvent()], { origin });
      expect(res.status).toBe(403);
      expect(res.json.error).toContain(JSON.stringify(origin));
      expectCors(res, origin);
    }
    expect(await storedReports(tenant.factoryId)).toEqual([]);
  });

  test('a wildcard origin admits subdomains only, never the apex or a look-alike', async () => {
    const tenant = await ingestTenant(api, ['https://*.example.com']);
    expect((await tenant.events([validEvent()], { origin: 'https://app.example.com' })).status).toBe(202);
    expect((await tenant.events([validEvent()], { origin: 'https://a.b.example.com' })).status).toBe(202);
    for (const origin of ['https://example.com', 'https://evilexample.com', 'https://example.com.evil.io', 'http://app.example.com']) {
      expect([origin, (await tenant.events([validEvent()], { origin })).status]).toEqual([origin, 403]);
    }
  });

  test('localhost only as listed, port included', async () => {
    const tenant = await ingestTenant(api, ['http://localhost:5173']);
    expect((await tenant.events([validEvent()], { origin: 'http://localhost:5173' })).status).toBe(202);
    expect((await tenant.events([validEvent()], { origin: 'http://localhost:5174' })).status).toBe(403);
  });

  test('the key is checked before the origin: an unknown key from a foreign site is 401', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([validEvent()], { origin: 'https://evil.example', key: `dfpk_${'B'.repeat(43)}` });
    expect(res.status).toBe(401);
  });
});

describe('per-key limit: 429 with Retry-After', () => {
  test('a key of 1 request per minute: the second is 429, readable through CORS', async () => {
    const tenant = await ingestTenant(api, [SITE], 'slow', 1);
    expect((await tenant.events([validEvent()])).status).toBe(202);
    // Another error: not held by the first one's limit, only by the key's.
    const limited = await tenant.events([validEvent({ message: 'RangeError: another error' })]);
    expect(limited.status).toBe(429);
    expect(limited.json.error).toMatch(/Rate limit of 1 requests per minute exceeded for this key/);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expectCors(limited, SITE);
  });

  test('publishable keys get 600 requests per minute unless told otherwise', async () => {
    const tenant = await ingestTenant(api);
    const [listed] = await listKeys(tenant.factoryId);
    expect(listed!.rateLimit).toBe(600);
  });

  test('a refused origin is checked before the limit: an over-limit key from a foreign site is 403', async () => {
    const tenant = await ingestTenant(api, [SITE], 'slow', 1);
    await tenant.events([validEvent()]);
    expect((await tenant.events([validEvent()], { origin: 'https://evil.example' })).status).toBe(403);
  });
});

describe('HTTP layer of the ingest API', () => {
  test('415 for a content type other than JSON or text, or a charset other than UTF-8', async () => {
    const tenant = await ingestTenant(api);
    for (const contentType of ['application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'text/plain; charset=iso-8859-1', null]) {
      const res = await tenant.events([validEvent()], { contentType });
      expect([contentType, res.status]).toEqual([contentType, 415]);
      expect(res.json.error).toMatch(/Content-Type|charset/);
    }
  });

  test('413 for a body over 64 KiB, before the key is looked at', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.post(EVENTS, { events: [validEvent({ message: 'x'.repeat(70_000) })] }, { key: `dfpk_${'C'.repeat(43)}` });
    expect(res.status).toBe(413);
    expect(res.json.error).toMatch(/limit is 65536 bytes \(64 KiB\)/);
    expectCors(res, SITE);
  });

  test('400 for malformed JSON, after the key and the origin', async () => {
    const tenant = await ingestTenant(api);
    expect((await tenant.post(EVENTS, undefined, { raw: '{"events": [' })).status).toBe(400);
    expect((await tenant.post(EVENTS, undefined, { raw: '{', origin: 'https://evil.example' })).status).toBe(403);
  });

  test('405 with Allow for another method; 404 for another path under /ingest/v1/', async () => {
    const get = await api.request('GET', EVENTS, { headers: { Origin: SITE } });
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('OPTIONS, POST');
    expectCors(get, SITE);
    const missing = await api.request('POST', '/ingest/v1/transactions', { headers: { Origin: SITE } });
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatch(/ingest API takes POST \/ingest\/v1\/events/);
  });

  test('every answer carries X-Request-Id, no-store and nosniff', async () => {
    const tenant = await ingestTenant(api);
    const res = await tenant.events([validEvent()]);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});
