/** Requests to the ingest API: its paths, keys in the header and the query, origins, content types, report bodies. */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { otherField } from './headers';
import type { FuzzRequest } from './request';
import { keyShaped } from './values';
import type { FuzzWorld } from './world';

type Field = [string, string];

const EVENT_TYPES = ['error', 'bug_report', 'message'];
/** 64 KiB, the ingest body limit (ingest contract). */
const LIMIT = 64 * 1024;

const uuid = fc.constant(null).map(() => randomUUID());
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom('a\u0000b', '\u202Eevil', 'x\ud800y', 'line\nbreak', ''),
  fc.integer({ min: 1, max: 20_000 }).map((n) => 'm'.repeat(n)),
);

/** One event as a page's SDK sends it: valid, or with a field of the wrong kind (test/store/stream-records.test.ts reads them back as the tally does). */
export const ingestEvent = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record(
      {
        eventId: fc.oneof(
          uuid,
          uuid.map((id) => id.toUpperCase()),
        ),
        type: fc.constantFrom(...EVENT_TYPES),
        timestamp: fc.constantFrom('2026-11-24T10:00:00Z', '2026-11-24T10:00:00.123+02:00'),
        message: text,
        exception: fc.record({ type: text, value: text, stack: text }, { requiredKeys: [] }),
        pageUrl: text,
        release: text,
        tags: fc.dictionary(fc.string({ maxLength: 10 }), fc.string({ maxLength: 10 }), { maxKeys: 55 }),
        reporter: fc.record({ email: text, name: text }, { requiredKeys: [] }),
        extra: fc.jsonValue({ maxDepth: 2 }),
      },
      { requiredKeys: ['eventId'] },
    ),
  },
  {
    weight: 1,
    arbitrary: fc.record(
      {
        eventId: fc.oneof(fc.constantFrom('not-a-uuid', '', null, 42), uuid),
        type: fc.oneof(fc.constantFrom('fatal', 7, null), fc.constantFrom(...EVENT_TYPES)),
        message: fc.oneof(fc.constant(null), fc.integer(), text),
        tags: fc.oneof(fc.constant('tags'), fc.array(fc.string()), fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })),
        timestamp: fc.constantFrom('yesterday', 1_700_000_000, '2026-13-45T99:00:00Z'),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }) },
);

const featureRequest = fc.record(
  {
    requestId: fc.oneof({ weight: 5, arbitrary: uuid }, { weight: 1, arbitrary: fc.constantFrom('42', null, 7) }),
    title: fc.oneof(fc.constantFrom('Dark mode', 'ab', '  x  ', 't'.repeat(500)), text, fc.constant(null)),
    description: text,
    category: text,
    pageUrl: text,
    reporter: fc.record({ email: text, name: text }, { requiredKeys: [] }),
  },
  { requiredKeys: ['requestId', 'title'] },
);

const json = (value: unknown) => Buffer.from(JSON.stringify(value) ?? 'null', 'utf8');

/** A body for either endpoint: envelopes of 0–25 events, feature requests, broken JSON, bytes that are not UTF-8, too big. */
const body = fc.oneof(
  { weight: 6, arbitrary: fc.array(ingestEvent, { minLength: 1, maxLength: 5 }).map((events) => json({ events })) },
  { weight: 1, arbitrary: fc.array(ingestEvent, { minLength: 0, maxLength: 25 }).map((events) => json({ events })) },
  { weight: 4, arbitrary: featureRequest.map(json) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map(json) },
  { weight: 1, arbitrary: fc.constantFrom('', '{', '{"events": [', 'null', '[]', '\ufeff{"events": []}').map((t) => Buffer.from(t, 'utf8')) },
  { weight: 1, arbitrary: fc.constantFrom(Buffer.from([0x7b, 0xff, 0x7d]), Buffer.from([0xc0, 0x80])) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(LIMIT - 200, LIMIT + 1, LIMIT * 3).map((bytes) => json({ events: [{ eventId: randomUUID(), message: 'x'.repeat(bytes) }] })),
  },
);

/** Keys a page could send: the world's publishable ones (often), and every wrong kind. */
function key(world: FuzzWorld): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant(world.ingest.key) },
    { weight: 1, arbitrary: fc.constant(world.ingest.throttledKey) },
    { weight: 1, arbitrary: fc.constantFrom(world.own.key, world.publishableKey, world.revokedKey, world.unknownKey) },
    { weight: 1, arbitrary: fc.oneof(keyShaped, fc.constantFrom('dfpk_short', 'pk_live_1', '')) },
  );
}

const ORIGINS = [
  'https://www.example.com',
  'https://app.shop.example',
  'https://a.b.shop.example',
  'HTTPS://WWW.EXAMPLE.COM:443',
  'https://www.example.com:8443',
  'http://www.example.com',
  'https://shop.example',
  'https://evilshop.example',
  'https://www.example.com.evil.io',
  'null',
  '',
  'https://www.example.com/path',
  'https://www.example.com, https://evil.example',
];

function headers(world: FuzzWorld): fc.Arbitrary<{ fields: Field[]; queryKeys: string[] }> {
  const origin = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...ORIGINS.slice(0, 3)).map((o): Field[] => [['Origin', o]]) },
    { weight: 3, arbitrary: fc.constantFrom(...ORIGINS).map((o): Field[] => [[o === '' ? 'origin' : 'Origin', o]]) },
    { weight: 1, arbitrary: fc.constant<Field[]>([]) },
  );
  const contentType = fc
    .oneof(
      { weight: 6, arbitrary: fc.constantFrom('application/json', 'text/plain;charset=UTF-8', 'text/plain') },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          'application/json; charset=latin1',
          'text/html',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          '',
          'TEXT/PLAIN',
        ),
      },
    )
    .map((value): Field[] => [['Content-Type', value]]);
  const noContentType = fc.constant<Field[]>([]);
  // Where the key goes: the header (fetch), the query (sendBeacon), both, neither, twice.
  const placement = fc.constantFrom('header', 'header', 'query', 'query', 'both', 'none', 'two-queries', 'not-bearer');
  return fc
    .tuple(
      origin,
      fc.oneof({ weight: 9, arbitrary: contentType }, { weight: 1, arbitrary: noContentType }),
      placement,
      key(world),
      key(world),
      fc.boolean(),
      fc.array(otherField(world), { maxLength: 2 }),
    )
    .map(([o, ct, where, k1, k2, same, other]) => {
      const fields: Field[] = [...o, ...ct, ...other.filter(([name]) => !/^(origin|content-type)$/i.test(name))];
      const queryKeys: string[] = [];
      if (where === 'header' || where === 'both') fields.push(['Authorization', `Bearer ${k1}`]);
      if (where === 'not-bearer') fields.push(['Authorization', k1]);
      if (where === 'query') queryKeys.push(k1);
      if (where === 'both') queryKeys.push(same ? k1 : k2);
      if (where === 'two-queries') queryKeys.push(k1, k2);
      return { fields, queryKeys };
    });
}

const PATHS = [
  '/ingest/v1/events',
  '/ingest/v1/feature-requests',
  '/ingest/v1/events/',
  '/ingest/v1/Events',
  '/ingest/v1/',
  '/ingest/v1/events/x',
  '/ingest/v1/sessions',
  '/ingest/v1/transactions',
];

/** A request to the ingest API: mostly POSTs a page would send, some preflights and other methods. */
export function ingestRequest(world: FuzzWorld): fc.Arbitrary<FuzzRequest> {
  const method = fc.oneof(
    { weight: 12, arbitrary: fc.constant('POST') },
    { weight: 2, arbitrary: fc.constant('OPTIONS') },
    { weight: 1, arbitrary: fc.constantFrom('GET', 'PUT', 'DELETE', 'HEAD', 'PATCH', 'post') },
  );
  const path = fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...PATHS.slice(0, 2)) }, { weight: 1, arbitrary: fc.constantFrom(...PATHS) });
  return fc.tuple(method, path, headers(world), body).map(([m, p, { fields, queryKeys }, b]) => ({
    method: m,
    target: queryKeys.length === 0 ? p : `${p}?${queryKeys.map((k) => `key=${encodeURIComponent(k)}`).join('&')}`,
    headers: fields,
    body: b,
  }));
}
