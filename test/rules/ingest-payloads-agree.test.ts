import fc from 'fast-check';
import type { Reading } from '../../lambda/kernel/reading';
import { readEvent, readFeatureRequest } from '../../lambda/ingest/payloads';
import { eventSchema, featureRequestSchema } from '../../openapi/ingest-bodies';
import { isSensitiveKey } from '../../lambda/ingest/scrub/secret-value';

/**
 * The ingest function reads its bodies with hand-written readers
 * (lambda/ingest/payloads.ts); the OpenAPI document shows them as zod
 * schemas (openapi/ingest-bodies.ts). Both are the same rules: for any body
 * a browser could send, they accept the same bodies, give the same values
 * and list the same problems, word for word and in the same order.
 */

/**
 * Characters that exercise the free-text rule: controls, bidi overrides, line breaks, a lone surrogate, an emoji.
 * Punctuation that no scrubbing rule reads (`;`, `,`): the readers also scrub (an address such as `0.0.0.0` or
 * `0::1` becomes a marker), which the schemas, documenting the validation only, do not.
 */
const character = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', '-', ';', ',', 'é') },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\u0007', '\t', '\n', '\r\n', '\u2028', '\u200b', '\u202e', '\ufeff', '\ud800', '\udfff', '😀') },
);
/** The same without a lone surrogate: text the free-text rule cleans and keeps. */
const cleanCharacter = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', 'é') },
  { weight: 1, arbitrary: fc.constantFrom('\u0007', '\n', '\u200b', '\u202e', '😀') },
);
const text = (maxLength: number) => fc.string({ unit: character, maxLength });
const cleanText = (minLength: number, maxLength: number) => fc.string({ unit: cleanCharacter, minLength, maxLength });
const longText = (around: number) => fc.string({ unit: character, minLength: around - 5, maxLength: around + 5 });

/** ISO times as browsers write them, and near misses. */
const time = fc.oneof(
  fc.date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()),
  fc.constantFrom(
    '2026-11-24T10:00:00Z',
    '2026-11-24T10:00+02:00',
    ' 2026-11-24T10:00:00.123456789-0130 ',
    '2026-13-40T25:61:00Z',
    '2026-11-24',
    'yesterday',
    '   ',
  ),
);

/** UUIDs as SDKs write them, and near misses. */
const uuid = fc.oneof(
  fc.uuid(),
  fc.uuid().map((id) => ` ${id.toUpperCase()} `),
  fc.constantFrom('8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c1', 'not-a-uuid', '', 'x'.repeat(80)),
);

/** Anything JSON can hold that is the wrong type for a field. */
const wrongType = fc.oneof(fc.integer(), fc.boolean(), fc.constant([]), fc.constant({}), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }));

/** A field's value: absent (the key missing), null, a plausible string, or the wrong type. */
const field = (plausible: fc.Arbitrary<unknown>) =>
  fc.oneof({ weight: 5, arbitrary: plausible }, { weight: 1, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: wrongType });

const textObject = (keys: Record<string, fc.Arbitrary<unknown>>) =>
  field(fc.oneof(fc.record(keys, { requiredKeys: [] }), fc.record({ ...keys, extra: fc.string() }, { requiredKeys: [] })));

// No tag named __proto__ here: zod's record drops it, where readEvent keeps it as a plain key (its own test below).
const tagKey = fc.oneof(text(8), longText(64), fc.constantFrom('constructor', 'toString', ' ', 'a\ud800'));
const tags = field(
  fc.oneof(
    fc.dictionary(tagKey, fc.oneof({ weight: 5, arbitrary: text(12) }, { weight: 1, arbitrary: longText(200) }, { weight: 1, arbitrary: wrongType }), {
      maxKeys: 6,
    }),
    // Not a name the scrubber reads as a credential's (`key`, `pwd`…): its value is replaced, which the schemas do not document.
    fc.dictionary(
      fc.string({ minLength: 1, maxLength: 6 }).filter((name) => !isSensitiveKey(name.trim())),
      fc.constant('v'),
      { minKeys: 48, maxKeys: 53 },
    ),
  ),
);

const fingerprint = field(
  fc.array(fc.oneof({ weight: 6, arbitrary: text(10) }, { weight: 1, arbitrary: longText(200) }, { weight: 1, arbitrary: wrongType }), { maxLength: 12 }),
);

const debugIds = field(
  fc.oneof(
    fc.dictionary(tagKey, fc.oneof({ weight: 5, arbitrary: uuid }, { weight: 1, arbitrary: wrongType }), { maxKeys: 4 }),
    fc.dictionary(fc.string({ minLength: 1, maxLength: 6 }), fc.uuid(), { minKeys: 19, maxKeys: 22 }),
  ),
);

const reporter = textObject({ email: field(text(20)), name: field(text(20)) });

/** A field absent, null, or valid. */
const validField = (valid: fc.Arbitrary<unknown>) => fc.oneof({ weight: 6, arbitrary: valid }, { weight: 1, arbitrary: fc.constant(null) });
const validReporter = validField(fc.record({ email: validField(cleanText(0, 20)), name: validField(cleanText(0, 20)) }, { requiredKeys: [] }));

/** Events whose every field is absent, null or valid: most are accepted. */
const validEvent = fc.record(
  {
    eventId: fc.uuid(),
    type: validField(fc.constantFrom('error', 'bug_report', 'message')),
    timestamp: validField(fc.date({ min: new Date(0), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString())),
    message: validField(cleanText(0, 40)),
    exception: validField(
      fc.record({ type: validField(cleanText(0, 10)), value: validField(cleanText(0, 20)), stack: validField(cleanText(0, 40)) }, { requiredKeys: [] }),
    ),
    pageUrl: validField(cleanText(0, 30)),
    release: validField(cleanText(0, 10)),
    tags: validField(fc.dictionary(cleanText(0, 8), cleanText(0, 12), { maxKeys: 5 })),
    reporter: validReporter,
    fingerprint: validField(fc.array(cleanText(0, 10), { minLength: 1, maxLength: 10 })),
    debugIds: validField(fc.dictionary(cleanText(0, 30), fc.uuid(), { maxKeys: 3 })),
  },
  { requiredKeys: ['eventId'] },
);

const event = fc.oneof(
  { weight: 10, arbitrary: validEvent },
  {
    weight: 20,
    arbitrary: fc.record(
      {
        eventId: field(uuid),
        type: field(fc.oneof(fc.constantFrom('error', 'bug_report', 'message'), text(6))),
        timestamp: field(time),
        message: field(fc.oneof(text(40), longText(8192))),
        exception: textObject({ type: field(text(20)), value: field(text(40)), stack: field(fc.oneof(text(60), longText(16_384))) }),
        pageUrl: field(text(30)),
        release: field(text(10)),
        tags,
        reporter,
        fingerprint,
        debugIds,
        unknownField: fc.string(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: wrongType },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** Feature requests whose every field is absent, null or valid: all are accepted. */
const validFeatureRequest = fc.record(
  {
    requestId: fc.uuid(),
    title: cleanText(0, 150).filter((title) => title.replace(/[\s\u0007\u200b\u202e]/g, '').length >= 3),
    description: validField(cleanText(0, 40)),
    category: validField(cleanText(0, 10)),
    pageUrl: validField(cleanText(0, 30)),
    reporter: validReporter,
  },
  { requiredKeys: ['requestId', 'title'] },
);

const featureRequest = fc.oneof(
  { weight: 10, arbitrary: validFeatureRequest },
  {
    weight: 20,
    arbitrary: fc.record(
      {
        requestId: field(uuid),
        title: field(fc.oneof(text(8), longText(140), fc.constantFrom('ab', ' abc ', '\u200bab\u200b'))),
        description: field(fc.oneof(text(40), longText(4000))),
        category: field(text(10)),
        pageUrl: field(text(30)),
        reporter,
        unknownField: fc.string(),
      },
      { requiredKeys: [] },
    ),
  },
  { weight: 1, arbitrary: wrongType },
  { weight: 1, arbitrary: fc.constant(null) },
);

/** The body as the function receives it: what survives JSON. */
const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value) ?? 'null');

function expectSameReading<T>(reading: Reading<T>, zod: { success: true; data: unknown } | { success: false; error: { issues: { message: string }[] } }) {
  if (zod.success) {
    expect(reading).toEqual({ ok: true, value: zod.data });
    // What is stored has no field set to undefined: an omitted field is absent.
    if (reading.ok) expect(Object.values(reading.value as object)).not.toContain(undefined);
  } else {
    expect(reading).toEqual({ ok: false, problems: zod.error.issues.map((issue) => issue.message) });
  }
}

describe('the ingest readers and the documented zod schemas agree', () => {
  test('on every event: accepted alike, the same value stored, the same problems in the same order', () => {
    fc.assert(
      fc.property(event, (raw) => {
        const body = asJson(raw);
        expectSameReading(readEvent(body), eventSchema.safeParse(body));
      }),
      { numRuns: 3000 },
    );
  });

  test('on every feature request: accepted alike, the same value stored, the same problems in the same order', () => {
    fc.assert(
      fc.property(featureRequest, (raw) => {
        const body = asJson(raw);
        expectSameReading(readFeatureRequest(body), featureRequestSchema.safeParse(body));
      }),
      { numRuns: 3000 },
    );
  });

  test('the generated events include accepted and refused ones, so agreeing is not agreeing on refusals alone', () => {
    const outcomes = fc.sample(event, { numRuns: 500, seed: 25 }).map((raw) => readEvent(asJson(raw)).ok);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(25);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(25);
  });

  test('the generated feature requests include accepted and refused ones', () => {
    const outcomes = fc.sample(featureRequest, { numRuns: 500, seed: 25 }).map((raw) => readFeatureRequest(asJson(raw)).ok);
    expect(outcomes.filter(Boolean).length).toBeGreaterThan(25);
    expect(outcomes.filter((ok) => !ok).length).toBeGreaterThan(25);
  });
});

describe('readEvent', () => {
  test('keeps tags named __proto__ and "constructor" as plain own keys, the prototype untouched', () => {
    const reading = readEvent(
      JSON.parse('{"eventId": "8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11", "message": "m", "tags": {"__proto__": "x", "constructor": "y"}}'),
    );
    const tags = reading.ok ? (reading.value.tags ?? {}) : {};
    expect(Object.entries(tags)).toEqual([
      ['__proto__', 'x'],
      ['constructor', 'y'],
    ]);
    expect(Object.getPrototypeOf(tags)).toBe(Object.prototype);
  });

  test('asks for a message or an exception only when every field is valid', () => {
    expect(readEvent({ eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11' })).toEqual({ ok: false, problems: ['an event needs a message or an exception'] });
    expect(readEvent({ eventId: 'nope' })).toEqual({ ok: false, problems: ['eventId must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got "nope")'] });
  });
});
