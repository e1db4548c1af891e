/**
 * Request bodies: upserts docs/contacts-api.md#upsert-a-contact--post-apiv1contacts accepts or refuses (with the verdict),
 * and everything else a hostile caller sends: random JSON, broken JSON,
 * bytes that are not UTF-8, byte order marks, deep nesting, huge payloads.
 */
import fc from 'fast-check';
import { BODY_LIMIT_BYTES } from '../../lambda/kernel/limits';
import { SOURCES } from '../../lambda/contacts/domain/source';
import { FORBIDDEN_FIELDS, type BodyIntent } from './request';
import { anyJson, companyDomain, freeText, illFormedText, invalidEmail, keyShaped, notADomain, sentEmail } from './values';

const TEXT = ['name', 'title', 'company', 'phone', 'page'] as const;
const KNOWN = new Set<string>([...TEXT, 'email', 'companyDomain', 'source', ...FORBIDDEN_FIELDS]);

/** A valid upsert, and what the server must make of it. */
export interface ValidUpsert {
  value: Record<string, unknown>;
  /** The stored form of its email. */
  email: string;
  /** The stored form of its companyDomain, when it sends one. */
  domain?: string;
  forbidden: Record<string, unknown>;
}

/** Values a caller might try for the fields the server sets: other tenants' ids, dates, flags, anything. */
const forbiddenValue = (foreign: string[]) =>
  fc.oneof(
    fc.constantFrom(...foreign, 'fac_someone_else', 'ct_0123456789abcdef', 'co_0123456789abcdef', '1999-01-01T00:00:00.000Z', true, false),
    fc.constant({ provider: 'evil', at: '1999-01-01T00:00:00.000Z', fields: { name: 'Injected' } }),
    anyJson,
  );

/** Some (or, with `all`, every one) of the fields no caller may set, with values a caller might try. */
export function forbiddenFields(foreign: string[], all = false): fc.Arbitrary<Record<string, unknown>> {
  const fields = Object.fromEntries(FORBIDDEN_FIELDS.map((field) => [field, forbiddenValue(foreign)])) as Record<
    (typeof FORBIDDEN_FIELDS)[number],
    fc.Arbitrary<unknown>
  >;
  return all ? fc.record(fields) : fc.record(fields, { requiredKeys: [] });
}

/**
 * An upsert docs/contacts-api.md#upsert-a-contact--post-apiv1contacts accepts: a valid email (any case, padded), optional
 * text (blank and null count as omitted; controls are stripped; long text is
 * clipped), a domain, a known source (or null), unknown fields, and fields
 * no caller may set.
 * `emails`: stored addresses it may reuse (updates); `foreign`: ids and
 * names of another tenant to try in forbidden fields.
 */
export function validUpsert(emails: string[] = [], foreign: string[] = []): fc.Arbitrary<ValidUpsert> {
  return fc
    .record({
      email: sentEmail(emails),
      text: fc.record(Object.fromEntries(TEXT.map((field) => [field, freeText])) as Record<(typeof TEXT)[number], typeof freeText>, {
        requiredKeys: [],
      }),
      domain: fc.option(companyDomain, { nil: undefined }),
      blankDomain: fc.constantFrom(undefined, null, '', '  '),
      source: fc.option(fc.constantFrom<string | null>(...SOURCES, null), { nil: undefined }),
      forbidden: forbiddenFields(foreign),
      unknown: fc.dictionary(
        fc.string({ maxLength: 12 }).filter((name) => !KNOWN.has(name)),
        anyJson,
        { maxKeys: 3 },
      ),
    })
    .map(({ email, text, domain, blankDomain, source, forbidden, unknown }) => {
      const value: Record<string, unknown> = { ...unknown, ...forbidden, ...text, email: email.raw };
      if (domain) value.companyDomain = domain.raw;
      else if (blankDomain !== undefined) value.companyDomain = blankDomain;
      if (source !== undefined) value.source = source;
      return { value, email: email.stored, domain: domain?.stored, forbidden };
    });
}

/** One defect docs/contacts-api.md#errors answers with 422, applied to a valid upsert. */
const defect: fc.Arbitrary<(body: Record<string, unknown>) => unknown> = fc.oneof(
  fc.constant((body: Record<string, unknown>) => {
    const { email: _email, ...rest } = body;
    return rest;
  }),
  fc
    .constantFrom<unknown>(null, 42, true, ['ada@example.com'], { address: 'ada@example.com' })
    .map((email) => (body: Record<string, unknown>) => ({ ...body, email })),
  invalidEmail.map((email) => (body: Record<string, unknown>) => ({ ...body, email })),
  fc
    .oneof(fc.constantFrom('API', 'crm', 'hubspot', 'unknown', 'ads!', '', '  ', ' ads', 'manual\n'), keyShaped)
    .map((source) => (body: Record<string, unknown>) => ({ ...body, source })),
  fc
    .tuple(fc.constantFrom(...TEXT, 'companyDomain', 'source'), fc.constantFrom<unknown>(7, false, ['x'], { x: 1 }))
    .map(([field, value]) => (body: Record<string, unknown>) => ({ ...body, [field]: value })),
  notADomain.map((domain) => (body: Record<string, unknown>) => ({ ...body, companyDomain: domain })),
  // Text that is not well-formed Unicode cannot be stored as sent, in free text or in the email.
  fc.tuple(fc.constantFrom(...TEXT, 'email'), illFormedText).map(([field, text]) => (body: Record<string, unknown>) => ({
    ...body,
    [field]: field === 'email' ? `${text}@example.com` : text,
  })),
  // Not an object at all.
  fc.constantFrom<unknown>(null, 0, 'ada@example.com', true, []).map((other) => () => other),
  fc.constant((body: Record<string, unknown>) => [body]),
);

/** An upsert docs/contacts-api.md#errors refuses with 422. */
export function invalidUpsert(emails: string[] = []): fc.Arbitrary<unknown> {
  return fc.tuple(validUpsert(emails), defect).map(([valid, apply]) => apply(valid.value));
}

export interface GeneratedBody {
  body: Buffer;
  intent?: BodyIntent;
}

const asJson = (value: unknown, intent: Omit<BodyIntent, 'text'>): GeneratedBody => {
  const text = JSON.stringify(value);
  return { body: Buffer.from(text, 'utf8'), intent: { text, ...intent } };
};

/** Breaks a JSON body at a random place: truncated, a byte replaced or inserted, garbage around it. */
const mutation = fc.record({
  kind: fc.constantFrom('truncate', 'replace', 'insert', 'prefix', 'suffix'),
  at: fc.nat(),
  byte: fc.integer({ min: 0, max: 255 }),
});

function mutate(generated: GeneratedBody, { kind, at, byte }: { kind: string; at: number; byte: number }): GeneratedBody {
  const { body } = generated;
  const i = body.length === 0 ? 0 : at % body.length;
  const one = Buffer.from([byte]);
  const bytes =
    kind === 'truncate'
      ? body.subarray(0, i)
      : kind === 'replace'
        ? Buffer.concat([body.subarray(0, i), one, body.subarray(i + 1)])
        : kind === 'insert'
          ? Buffer.concat([body.subarray(0, i), one, body.subarray(i)])
          : kind === 'prefix'
            ? Buffer.concat([one, body])
            : Buffer.concat([body, one]);
  // The verdict stays attached: the oracle applies it only if the bytes still spell the same JSON text.
  return { body: bytes, intent: generated.intent };
}

/** A valid upsert padded (in an unknown field) to `bytes` bytes of JSON. */
function paddedTo(valid: ValidUpsert, bytes: number): GeneratedBody {
  const base = JSON.stringify({ ...valid.value, pad: '' });
  const padding = Math.max(0, bytes - Buffer.byteLength(base, 'utf8'));
  return asJson({ ...valid.value, pad: 'x'.repeat(padding) }, { verdict: 'valid', email: valid.email, forbidden: valid.forbidden });
}

/** Deeply nested JSON, written out (a recursive JSON.stringify would overflow the stack). */
const nested = (depth: number, open: string, close: string, inner = '1') => `${open.repeat(depth)}${inner}${close.repeat(depth)}`;

function deepBody(depth: number, where: 'root' | 'unknown' | 'email' | 'name', email: ValidUpsert): GeneratedBody {
  const head = JSON.stringify({ email: email.value.email }).slice(0, -1);
  const text =
    where === 'root'
      ? nested(depth, '[', ']')
      : where === 'unknown'
        ? `${head},"x":${nested(depth, '{"a":', '}')}}`
        : where === 'email'
          ? `{"email":${nested(depth, '[', ']')}}`
          : `${head},"name":${nested(depth, '[', ']')}}`;
  const verdict = where === 'unknown' ? 'valid' : 'invalid';
  return {
    body: Buffer.from(text, 'utf8'),
    intent: verdict === 'valid' ? { text, verdict, email: email.email, forbidden: email.forbidden } : { text, verdict },
  };
}

/** Bytes that are not UTF-8, inside a JSON string or between tokens. */
const invalidUtf8 = fc.record({
  // Continuation bytes with no lead, and bytes that never occur in UTF-8.
  bytes: fc
    .array(fc.oneof(fc.integer({ min: 0x80, max: 0xbf }), fc.constantFrom(0xc0, 0xc1, 0xf5, 0xfe, 0xff)), { minLength: 1, maxLength: 4 })
    .map((bytes) => Buffer.from(bytes)),
  inString: fc.boolean(),
});

/** Non-JSON payloads a confused client sends with or without a JSON content type. */
const notJson = fc.oneof(
  fc.constantFrom(
    'email=ada%40example.com&name=Ada',
    '<contact><email>ada@example.com</email></contact>',
    '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n--x--',
    "{'email': 'ada@example.com'}",
    '{"email": "ada@example.com",}',
    'undefined',
    'NaN',
    '\u0000',
  ),
  fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes).toString('latin1')),
);

/** A valid upsert just over, or far over, the 512 KiB limit. */
export function oversizedBody(emails: string[], foreign: string[]): fc.Arbitrary<GeneratedBody> {
  return fc
    .tuple(validUpsert(emails, foreign), fc.oneof(fc.constant(BODY_LIMIT_BYTES + 1), fc.integer({ min: BODY_LIMIT_BYTES + 2, max: 1_100_000 })))
    .map(([v, bytes]) => paddedTo(v, bytes));
}

/** Any body, for a request to any endpoint. `emails`: stored addresses valid upserts may reuse. */
export function anyBody(emails: string[], foreign: string[]): fc.Arbitrary<GeneratedBody> {
  const valid = validUpsert(emails, foreign);
  const validJson = valid.map((v) => asJson(v.value, { verdict: 'valid', email: v.email, forbidden: v.forbidden }));
  const invalidJson = invalidUpsert(emails).map((value) => asJson(value, { verdict: 'invalid' }));
  return fc.oneof(
    { weight: 2, arbitrary: fc.constant({ body: Buffer.alloc(0) }) },
    { weight: 8, arbitrary: validJson },
    { weight: 6, arbitrary: invalidJson },
    { weight: 2, arbitrary: fc.jsonValue().map((value) => ({ body: Buffer.from(JSON.stringify(value) ?? 'null', 'utf8') })) },
    { weight: 3, arbitrary: fc.tuple(fc.oneof(validJson, invalidJson), mutation).map(([body, how]) => mutate(body, how)) },
    // A UTF-8 byte order mark is skipped (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts): the verdict stands.
    { weight: 1, arbitrary: validJson.map(({ body, intent }) => ({ body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]), intent })) },
    { weight: 2, arbitrary: notJson.map((text) => ({ body: Buffer.from(text, 'latin1') })) },
    {
      weight: 1,
      arbitrary: fc.tuple(valid, invalidUtf8).map(([v, { bytes, inString }]): GeneratedBody => {
        const text = JSON.stringify({ ...v.value, note: 'INVALID' });
        const [before, after] = text.split('INVALID') as [string, string];
        const at = inString ? [Buffer.from(before), bytes, Buffer.from(after)] : [Buffer.from(text.slice(0, -1)), bytes, Buffer.from('}')];
        return { body: Buffer.concat(at) };
      }),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(valid, fc.oneof(fc.constantFrom(BODY_LIMIT_BYTES - 1, BODY_LIMIT_BYTES, BODY_LIMIT_BYTES + 1), fc.integer({ min: 1000, max: 1_100_000 })))
        .map(([v, bytes]) => paddedTo(v, bytes)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.integer({ min: 100, max: 80_000 }),
          fc.constantFrom('root', 'unknown', 'email', 'name') as fc.Arbitrary<'root' | 'unknown' | 'email' | 'name'>,
          valid,
        )
        .map(([depth, where, v]) => deepBody(depth, where, v)),
    },
  );
}
