/** Request targets: the API's paths, near misses, junk, and query strings with keys and emails in them. */
import fc from 'fast-check';
import type { FuzzWorld } from './world';
import { caseVariant, invalidEmail, keyShaped, storedEmail, withCase } from './values';

/** Characters that would end a path segment or break the request line (no request smuggling). */
const SEGMENT_BREAKERS = /[/?\r\n\u0000]/g;

/** Secrets and key-shaped tokens, glued to what a careless caller puts before them. */
export const keyish = (world: FuzzWorld) =>
  fc
    .tuple(
      fc.constantFrom('', '', 'x', '_', '-', '=', 'key:', 'Bearer%20', '9'),
      fc.oneof(fc.constantFrom(world.own.key, world.throttledKey, world.revokedKey, world.publishableKey, world.unknownKey), keyShaped),
      fc.constantFrom('', '', 'x', '.', '%20'),
    )
    .map(([before, key, after]) => `${before}${key}${after}`);

const percentEncodeAll = (text: string) => [...Buffer.from(text, 'utf8')].map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('');

/** What follows /api/v1/contacts/: ids of both tenants, near ids, keys, emails, junk. */
export function idSegmentFor(world: FuzzWorld): fc.Arbitrary<string> {
  const ownIds = world.own.contacts.map((c) => c.id);
  const otherIds = world.other.contacts.map((c) => c.id);
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...ownIds) },
    { weight: 2, arbitrary: fc.constantFrom(...otherIds) },
    { weight: 1, arbitrary: fc.constantFrom(...ownIds).map((id) => id.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...ownIds).map(percentEncodeAll) },
    { weight: 2, arbitrary: fc.stringMatching(/^ct_[0-9a-f]{16}$/) },
    { weight: 2, arbitrary: keyish(world).map((key) => key.replace(SEGMENT_BREAKERS, '')) },
    { weight: 1, arbitrary: storedEmail.chain((email) => fc.constantFrom(email, encodeURIComponent(email))) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 30 }).map(encodeURIComponent) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 20 }).map((s) => s.replace(SEGMENT_BREAKERS, '') || 'x') },
    { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%ff', '..', '.', '%2F', '%2f..', 'ct_0123456789abcdef%00', '~', '*') },
    { weight: 1, arbitrary: fc.integer({ min: 100, max: 20_000 }).map((n) => 'a'.repeat(n)) },
  );
}

function anySegment(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.stringMatching(/^[A-Za-z0-9._~-]{1,12}$/) },
    { weight: 1, arbitrary: fc.constantFrom('api', 'v1', 'v2', 'contacts', 'companies', 'ingest', 'events', '') },
    { weight: 1, arbitrary: idSegmentFor(world) },
  );
}

/** A path: the API's own (often), near misses and junk. */
export function path(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom('/api/v1/contacts', '/api/v1/contacts/') },
    {
      weight: 4,
      arbitrary: fc.tuple(idSegmentFor(world), fc.boolean()).map(([id, slash]) => `/api/v1/contacts/${id}${slash ? '/' : ''}`),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '/api/v1/contacts//',
        '/api/v1/contacts/ct_0123456789abcdef/notes',
        '/API/v1/contacts',
        '/api/v1/Contacts',
        '/api/v1/contact',
        '/api/v2/contacts',
        '/api/v1',
        '/',
        '//api/v1/contacts',
        '/api/v1/contacts%2F',
        '/api/v1/contacts/./',
        '/api/v1/contacts/..',
        '/api/v1/contacts/../contacts',
        '/ingest/v1/events',
        '/ingest/v1/feature-requests',
        '/api/v1/contacts:batch',
        '/api/v1/contacts;jsessionid=1',
        '/api/v1/contacts.json',
        '/api/v1/companies',
      ),
    },
    { weight: 1, arbitrary: fc.array(anySegment(world), { maxLength: 4 }).map((segments) => `/${segments.join('/')}`) },
  );
}

/** A query-string value: the tenants' emails (any case, `+` unencoded), keys, junk. */
function queryValue(world: FuzzWorld): fc.Arbitrary<string> {
  const emails = [...world.own.contacts, ...world.other.contacts].map((c) => c.email);
  return fc.oneof(
    { weight: 4, arbitrary: caseVariant(fc.constantFrom(...emails)) },
    { weight: 2, arbitrary: storedEmail },
    { weight: 1, arbitrary: invalidEmail },
    { weight: 2, arbitrary: keyish(world) },
    { weight: 1, arbitrary: fc.constantFrom('', ' ', '+', '%', '%zz', '%ff') },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.integer({ min: 300, max: 10_000 }).map((n) => `${'a'.repeat(n)}@example.com`) },
  );
}

const queryName = fc.oneof(
  { weight: 6, arbitrary: fc.constant('email') },
  { weight: 2, arbitrary: fc.constantFrom('Email', 'EMAIL', 'e-mail', 'key', 'api_key', 'apiKey', 'access_token', 'token', 'authorization') },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);

/** `raw` keeps `+` and `@` as typed (a `+` then arrives as a space); only what would break the query is encoded. */
const encodeRaw = (text: string) => text.replace(/[&#=%\s\u0000]/g, (char) => encodeURIComponent(char));

function queryParam(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .tuple(queryName, queryValue(world), fc.constantFrom('encoded', 'raw'))
        .map(([name, value, how]) =>
          how === 'encoded' ? `${encodeURIComponent(name)}=${encodeURIComponent(value)}` : `${encodeRaw(name)}=${encodeRaw(value)}`,
        ),
    },
    { weight: 1, arbitrary: fc.constantFrom('', '&', '=', '=x', 'email', 'email=', '%zz=1', 'a=b=c', '%', '?', 'email=%E9') },
  );
}

/** A path with an optional query, in origin form, sometimes in absolute form (`http://host/path`). */
export function target(world: FuzzWorld): fc.Arbitrary<string> {
  return fc
    .record({
      path: path(world),
      query: fc.option(fc.array(queryParam(world), { minLength: 1, maxLength: 4 }), { nil: undefined, freq: 2 }),
      // Absolute form, including authorities no URL parser accepts.
      absolute: fc.constantFrom('', '', '', '', '', '', '', '', 'http://example.com', 'HTTPS://api.example.com:8443', 'http://a:99999', 'http://[::1'),
    })
    .map(({ path: p, query, absolute }) => `${absolute}${p}${query === undefined ? '' : `?${query.join('&')}`}`);
}

/** A query that reads one of the tenants' contacts by email, for read-heavy scenarios. */
export function emailQuery(world: FuzzWorld): fc.Arbitrary<string> {
  const emails = [...world.own.contacts, ...world.other.contacts].map((c) => c.email);
  return fc
    .tuple(fc.constantFrom(...emails), fc.nat(), fc.boolean())
    .map(([email, mask, raw]) => `?email=${raw ? encodeRaw(withCase(email, mask)) : encodeURIComponent(withCase(email, mask))}`);
}
