import { randomBytes } from 'node:crypto';
import { CONTENT_SECURITY_POLICY } from '../../local/console/control-room/security';
import { HOSTILE, seedDemo, type Demo } from '../../tools/control-room/demo-data';
import { rawCall, startControlRoom, type ControlRoom } from '../support/control-room';
import { newFactoryId, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';

/**
 * The control room over HTTP, as a hostile party would try it: without the
 * session, with a forged Host (DNS rebinding), from a foreign Origin, without
 * the CSRF token; and every page rendering text that strangers wrote.
 */
let api: LocalApi;
let room: ControlRoom;
let demo: Demo;

beforeAll(async () => {
  api = await startLocalApi();
  demo = await seedDemo({
    apiUrl: api.baseUrl,
    doc: testDoc(),
    tables,
    factoryId: newFactoryId('crsec'),
    hostile: true,
    mailDomain: `${randomBytes(4).toString('hex')}.example`,
  });
  room = await startControlRoom();
}, 60_000);
afterAll(async () => {
  await room?.close();
  await api?.close();
});

const fac = () => demo.factoryId;
const keysList = () => ({ operation: 'keys.list', factoryId: fac() });

describe('the session', () => {
  test('a page without the session cookie is 401, and says to open the printed URL', async () => {
    const answer = await rawCall(room.port, 'GET', `/f/${fac()}/contacts`, { host: `127.0.0.1:${room.port}` });
    expect(answer.status).toBe(401);
    expect(answer.text).toMatch(/npm run control-room/);
  });

  test('the printed URL sets an HttpOnly, SameSite=Strict cookie and redirects to drop the secret from the address', async () => {
    const url = new URL(room.session.loginUrl());
    const answer = await rawCall(room.port, 'GET', `${url.pathname}${url.search}`, { host: url.host });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/');
    expect(answer.headers['set-cookie']).toEqual([`${room.session.cookieName}=${room.session.secret}; Path=/; HttpOnly; SameSite=Strict`]);
  });

  test('a login URL with another secret is 401 and sets no cookie', async () => {
    const answer = await rawCall(room.port, 'GET', `/login?token=${'x'.repeat(43)}`, { host: `127.0.0.1:${room.port}` });
    expect(answer.status).toBe(401);
    expect(answer.headers['set-cookie']).toBeUndefined();
  });

  test('an operation without the session cookie is 401 and runs nothing', async () => {
    // A state-changing operation: had it run, the factory would hold one more key.
    const before = JSON.parse((await room.operation(keysList())).text).keys;
    const answer = await room.operation({ operation: 'keys.create', factoryId: fac() }, { cookie: '' });
    expect(answer.status).toBe(401);
    expect(JSON.parse((await room.operation(keysList())).text).keys).toEqual(before);
  });
});

describe('the Host allow-list (DNS rebinding)', () => {
  test.each(['evil.example', `evil.example:${0}`, 'localhost.evil.example', '127.0.0.1', '127.0.0.2:PORT', '[::1]:PORT', 'localhost:1'])(
    'Host %s is refused with 421 before anything else, even with the session cookie',
    async (host) => {
      const forged = host.replace('PORT', String(room.port));
      const page = await room.get(`/f/${fac()}/contacts`, { host: forged });
      const operation = await room.operation(keysList(), { host: forged, origin: `http://${forged}` });
      expect([page.status, operation.status]).toEqual([421, 421]);
      expect(page.text).not.toContain(fac());
    },
  );

  test("127.0.0.1:<port> and localhost:<port> are the app's own", async () => {
    expect((await room.get(`/f/${fac()}/contacts`)).status).toBe(200);
    expect((await room.get(`/f/${fac()}/contacts`, { host: `localhost:${room.port}` })).status).toBe(200);
  });
});

describe('requests another page started (Sec-Fetch-Site)', () => {
  test.each(['same-site', 'cross-site'])('a plain GET of an export with Sec-Fetch-Site: %s is refused with 403, and no export starts', async (site) => {
    const answer = await room.get(`/f/${fac()}/export/contacts.csv`, { 'sec-fetch-site': site });
    expect(answer.status).toBe(403);
    expect(answer.text).toMatch(/started by another page/);
    expect(answer.headers['content-disposition']).toBeUndefined();
  });

  test('a page with Sec-Fetch-Site: same-site is refused too, as is an operation with everything else right', async () => {
    expect((await room.get(`/f/${fac()}/contacts`, { 'sec-fetch-site': 'same-site' })).status).toBe(403);
    expect((await room.operation(keysList(), { 'sec-fetch-site': 'same-site' })).status).toBe(403);
  });

  test.each([['same-origin'], ['none'], [undefined]])("Sec-Fetch-Site: %s (the app's own pages, a typed address, curl) goes on", async (site) => {
    const answer = await room.get(`/f/${fac()}/export/contacts.csv`, site === undefined ? {} : { 'sec-fetch-site': site });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-disposition']).toMatch(/attachment/);
  });

  test('without Sec-Fetch-Site, an operation from another port is still refused by its Origin', async () => {
    const answer = await room.operation(keysList(), { origin: `http://127.0.0.1:${room.port + 1}` });
    expect(answer.status).toBe(403);
  });
});

describe('state-changing requests', () => {
  test("with the cookie, the CSRF token and the app's own Origin, an operation runs and answers as the operation does", async () => {
    const answer = await room.operation(keysList());
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text).keys.length).toBeGreaterThan(0);
  });

  test.each([
    ['no Origin', { origin: '' }],
    ['Origin null', { origin: 'null' }],
    ['another port of 127.0.0.1 (the same site)', { origin: 'http://127.0.0.1:1' }],
    ['another site', { origin: 'https://evil.example' }],
    ['https instead of http', { origin: 'https://127.0.0.1:PORT' }],
    ['localhost while the Host is 127.0.0.1', { origin: 'http://localhost:PORT' }],
    ['no CSRF token', { 'x-csrf-token': '' }],
    ['a wrong CSRF token', { 'x-csrf-token': 'forged' }],
    ['a form content type (what a foreign page can post without asking)', { 'content-type': 'text/plain' }],
  ])('%s: 403, nothing runs', async (_, headers) => {
    const given = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, value.replace('PORT', String(room.port))]));
    const before = JSON.parse((await room.operation(keysList())).text).keys.length;
    const answer = await room.operation({ operation: 'keys.create', factoryId: fac() }, given);
    expect(answer.status).toBe(403);
    expect(JSON.parse((await room.operation(keysList())).text).keys.length).toBe(before);
  });

  test('an erasure without the CSRF token, or from another Origin, is 403 and erases nothing', async () => {
    const contact = { operation: 'contacts.show', factoryId: fac(), contactId: demo.hostileContactId };
    for (const headers of [{ 'x-csrf-token': '' }, { origin: 'https://evil.example' }] as Record<string, string>[]) {
      const answer = await room.operation({ operation: 'contacts.erase', factoryId: fac(), contactId: demo.hostileContactId }, headers);
      expect(answer.status).toBe(403);
    }
    expect((await room.operation(contact)).status).toBe(200);
  });

  test('methods other than GET, HEAD and POST are refused with 405', async () => {
    const answer = await rawCall(room.port, 'PUT', '/api/operation', { host: `127.0.0.1:${room.port}`, cookie: room.cookie });
    expect(answer.status).toBe(405);
  });

  test("an operation's error comes back with its status and its own words", async () => {
    const answer = await room.operation({ operation: 'contacts.clear', factoryId: fac(), contactId: 'ct_0000000000000000', fields: ['title'] });
    expect(answer.status).toBe(404);
    expect(JSON.parse(answer.text)).toEqual({ error: `no contact ct_0000000000000000 in ${fac()}` });
  });
});

describe('headers', () => {
  test('pages carry the strict CSP, nosniff, no framing, no referrer, and no CORS header', async () => {
    const answer = await room.get(`/f/${fac()}/contacts`, { origin: 'https://evil.example' });
    expect(answer.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
    );
    expect(answer.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' });
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  test('JSON answers are nosniff and same-origin only, without CORS headers', async () => {
    const answer = await room.operation(keysList());
    expect(answer.headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });
});

/**
 * The page's real tags (text has every `<` escaped, so each match is markup
 * the server wrote) that break the CSP's promise: a script without src, an
 * inline handler, a style attribute or element, a javascript: URL.
 */
function inlineCode(page: string): string[] {
  const tags = page.match(/<[a-zA-Z][^>]*>/g) ?? [];
  return tags.filter((tag) => {
    // Attribute values are quoted with every `"` in them escaped: what is left outside quotes are the attribute names.
    const names = tag.replace(/"[^"]*"/g, '""');
    return (
      /^<script(?![^>]*\bsrc=)/i.test(tag) ||
      /\son[a-z]+\s*=/i.test(names) ||
      /\sstyle\s*=/i.test(names) ||
      /^<style/i.test(tag) ||
      /(href|src|action)="\s*javascript:/i.test(tag)
    );
  });
}

describe('hostile text is shown as text on every page', () => {
  const pages = () => [
    `/f/${fac()}/contacts`,
    `/f/${fac()}/contacts/${demo.hostileContactId}`,
    `/f/${fac()}/companies`,
    `/f/${fac()}/keys`,
    `/f/${fac()}/enrichment`,
    `/f/${fac()}/reports/events`,
    `/f/${fac()}/reports/events/${demo.hostileEventId}`,
    `/f/${fac()}/reports/feature-requests`,
    `/f/${fac()}/reports/issues`,
    `/f/${fac()}/erase?contact=${demo.hostileContactId}`,
  ];

  test('no page holds an inline script, an event handler attribute, a style attribute or a javascript: URL', async () => {
    for (const path of pages()) {
      const answer = await room.get(path);
      expect([path, answer.status]).toEqual([path, 200]);
      expect([path, inlineCode(answer.text)]).toEqual([path, []]);
    }
  });

  test("the hostile contact's name, title and page appear escaped", async () => {
    const text = (await room.get(`/f/${fac()}/contacts/${demo.hostileContactId}`)).text;
    expect(text).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
    expect(text).toContain('&lt;/script&gt;&lt;script&gt;window.__pwned=1&lt;/script&gt;');
    expect(text).toContain('&quot;&gt;&lt;svg onload=&quot;window.__pwned=1&quot;&gt;');
    for (const raw of Object.values(HOSTILE)) expect(text).not.toContain(raw);
  });

  test("the hostile event's message and stack, and the hostile feature request's title, appear escaped", async () => {
    const event = (await room.get(`/f/${fac()}/reports/events/${demo.hostileEventId}`)).text;
    expect(event).toContain('&lt;svg onload=&quot;window.__pwned=1&quot;&gt;\n    at &quot;&gt;&lt;script&gt;');
    const requests = (await room.get(`/f/${fac()}/reports/feature-requests`)).text;
    expect(requests).toContain('&quot;&gt;&lt;svg onload=&quot;window.__pwned=1&quot;&gt; please');
    for (const raw of Object.values(HOSTILE)) expect(event + requests).not.toContain(raw);
  });

  test("the hostile event's issue (its title, type and fingerprint written by a stranger) appears escaped in the list and on its page", async () => {
    const list = (await room.get(`/f/${fac()}/reports/issues`)).text;
    const link = /href="(\/f\/[^"]+\/reports\/issues\/iss_[0-9a-f]{20})">[^<]*&lt;b&gt;Evil&lt;\/b&gt;/.exec(list);
    expect(link).not.toBeNull();
    const issue = await room.get((link as RegExpExecArray)[1] as string);
    expect(issue.status).toBe(200);
    expect(inlineCode(issue.text)).toEqual([]);
    expect(issue.text).toContain('&lt;b&gt;Evil&lt;/b&gt;');
    for (const raw of Object.values(HOSTILE)) expect(list + issue.text).not.toContain(raw);
    expect(list + issue.text).not.toContain('<b>Evil</b>');
  });

  test('a search for markup comes back escaped, never as markup', async () => {
    const answer = await room.get(`/f/${fac()}/contacts?q=${encodeURIComponent(HOSTILE.page)}`);
    expect(answer.text).toContain('&quot;&gt;&lt;svg onload=');
    expect(answer.text).not.toContain(HOSTILE.page);
  });
});
