/** Header fields: Authorization in every form, Origin, keys in other headers, odd content types, junk, huge values. */
import fc from 'fast-check';
import { keyish } from './targets';
import { keyShaped } from './values';
import type { FuzzWorld } from './world';

type Field = [string, string];

const authorizationName = fc.constantFrom('Authorization', 'authorization', 'AUTHORIZATION', 'aUTHORIZATION');

/** `Bearer <key>` as RFC 6750 allows it: any case of the scheme, one or more spaces, surrounding whitespace. */
const bearerOf = (key: fc.Arbitrary<string>) =>
  fc
    .tuple(fc.constantFrom('Bearer', 'bearer', 'BEARER', 'BeArEr'), fc.constantFrom(' ', '  ', '   '), fc.constantFrom('', ' ', '\t'), key)
    .map(([scheme, gap, pad, value]) => `${pad}${scheme}${gap}${value}${pad}`);

/** Ways to send a key that are not `Bearer <key>`, and broken or doubled keys. */
const ODD_FORMS: ((key: string) => string)[] = [
  (k) => `Basic ${Buffer.from(`${k}:`).toString('base64')}`,
  (k) => `Basic ${k}`,
  (k) => k,
  (k) => `Token ${k}`,
  (k) => `Bearer ${k} extra`,
  (k) => `Bearer ${k}${k}`,
  (k) => `Bearer ${k}, Bearer ${k}`,
  (k) => `Bearer:${k}`,
  (k) => `Bearer${k}`,
  (k) => `Bearer "${k}"`,
  (k) => `Bearer ${k},`,
  (k) => `Bearer\t${k}`,
  (k) => `Bearer\u00a0${k}`,
  (k) => `Bearer ${k.slice(0, -1)}`,
  (k) => `Bearer ${k}x`,
  (k) => `Bearer ${k.toUpperCase()}`,
  (k) => `Bearer ${k}\u200b`,
  () => 'Bearer',
  () => 'Bearer ',
  () => '',
];

/** Zero, one or two Authorization fields. */
export function authorization(world: FuzzWorld): fc.Arbitrary<Field[]> {
  const badKey = fc.oneof(fc.constantFrom(world.revokedKey, world.publishableKey, world.unknownKey), keyShaped, fc.string({ maxLength: 60 }));
  const anyKey = fc.oneof({ weight: 3, arbitrary: fc.constant(world.own.key) }, { weight: 1, arbitrary: badKey });
  const odd = fc.tuple(fc.constantFrom(...ODD_FORMS), anyKey).map(([form, key]) => form(key));
  const one = (value: fc.Arbitrary<string>) => fc.tuple(authorizationName, value).map((field): Field[] => [field]);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant<Field[]>([]) },
    { weight: 10, arbitrary: one(bearerOf(fc.constant(world.own.key))) },
    { weight: 1, arbitrary: one(bearerOf(fc.constant(world.throttledKey))) },
    { weight: 2, arbitrary: one(bearerOf(badKey)) },
    { weight: 2, arbitrary: one(odd) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(authorizationName, bearerOf(fc.constant(world.own.key)), authorizationName, fc.oneof(bearerOf(anyKey), odd))
        .map(([n1, v1, n2, v2]): Field[] => [
          [n1, v1],
          [n2, v2],
        ]),
    },
  );
}

/** Fields the HTTP layer uses to frame the message, or that Authorization/Origin stand for: never random. */
const RESERVED = new Set([
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'expect',
  'upgrade',
  'te',
  'trailer',
  'keep-alive',
  'proxy-connection',
  'http2-settings',
  'authorization',
  'origin',
]);

const token = fc.stringMatching(/^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,20}$/).filter((name) => !RESERVED.has(name.toLowerCase()));
/** Header text: no CR, LF or NUL, which would forge further fields. */
const fieldText = fc.string({ unit: 'grapheme', maxLength: 60 }).map((s) => s.replace(/[\r\n\u0000]/g, ''));
/** Bytes 0x80-0xFF: on the wire, not UTF-8. */
const latin1Text = fc.string({ unit: fc.integer({ min: 0x80, max: 0xff }).map((c) => String.fromCharCode(c)), minLength: 1, maxLength: 20 });

/** Fields other than Authorization. */
export function otherField(world: FuzzWorld): fc.Arbitrary<Field> {
  return fc.oneof(
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('Origin', 'origin', 'ORIGIN'),
        fc.oneof(fc.constantFrom('', 'https://example.com', 'null', 'http://localhost:3000'), keyish(world)),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.tuple(
        fc.constantFrom('Content-Type', 'content-type'),
        fc.constantFrom(
          'application/json',
          'application/json; charset=utf-8',
          'application/json; charset=latin1',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/xml',
          '*/*',
          '',
        ),
      ),
    },
    {
      weight: 2,
      arbitrary: fc.tuple(
        fc.constantFrom('X-Api-Key', 'Api-Key', 'Cookie', 'X-Authorization', 'Proxy-Authorization', 'Referer', 'User-Agent', 'X-Amz-Security-Token'),
        fc.tuple(fc.constantFrom('', 'Bearer ', 'session=', 'https://app.example/?key='), keyish(world)).map(([before, key]) => `${before}${key}`),
      ),
    },
    { weight: 2, arbitrary: fc.tuple(token, fieldText) },
    { weight: 1, arbitrary: fc.tuple(token, latin1Text) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom('X-Huge', 'Cookie'),
        fc.integer({ min: 100, max: 40_000 }).map((n) => 'a'.repeat(n)),
      ),
    },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Field>(
        ['Access-Control-Request-Method', 'POST'],
        ['Access-Control-Request-Headers', 'authorization, content-type'],
        ['X-Forwarded-For', '203.0.113.9, 10.0.0.1'],
        ['Content-Encoding', 'gzip'],
        ['Accept', 'text/html'],
        ['Accept-Charset', 'latin1'],
        ['X-HTTP-Method-Override', 'DELETE'],
        ['Forwarded', 'for=203.0.113.9;proto=https'],
      ),
    },
  );
}
