import { EVENT_TEXT, MAX_DEBUG_IDS, MAX_FINGERPRINT_PARTS, MAX_TAGS } from '../../../lambda/ingest/limits';
import { ISO_TIME, isObject, quote, readEvent, readFeatureRequest, UUID } from '../../../lambda/ingest/payloads';

/** The ingest API's bodies as read (docs/ingest-api.md#bodies); the OpenAPI schemas agree with them: test/rules/ingest-payloads-agree.test.ts. */
const ID = '8F0C1A52-3B6E-4C7E-9A43-2F5D1E0B7C11';
const event = (fields: Record<string, unknown> = {}) => ({ eventId: ID, message: 'TypeError: x is undefined', ...fields });
const problemsOf = (reading: ReturnType<typeof readEvent> | ReturnType<typeof readFeatureRequest>) => (reading.ok ? [] : reading.problems);
const many = (count: number, entry: (index: number) => [string, unknown]) => Object.fromEntries(Array.from({ length: count }, (_, index) => entry(index)));

describe('an event, read', () => {
  test('keeps the fields it knows, drops the others, and takes null as omitted; its id is stored lowercase and its type is error unless said', () => {
    expect(readEvent({ ...event(), release: null, colour: 'blue' })).toEqual({
      ok: true,
      value: { eventId: ID.toLowerCase(), type: 'error', message: 'TypeError: x is undefined' },
    });
  });

  test('lists every problem of the event, in field order', () => {
    expect(problemsOf(readEvent({ eventId: 'x', type: 'crash', message: 7 }))).toEqual([
      'eventId must be a UUID like 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 (got "x")',
      expect.stringMatching(/^type must be one of .* \(got "crash"\)$/),
      'message must be a string',
    ]);
  });

  test('is a JSON object, and needs a message or an exception (blank text counts as none)', () => {
    expect(problemsOf(readEvent([]))).toEqual([expect.stringMatching(/^an event must be a JSON object/)]);
    expect(problemsOf(readEvent({ eventId: ID, message: '   ' }))).toEqual(['an event needs a message or an exception']);
    expect(readEvent({ eventId: ID, exception: { type: 'RangeError' } }).ok).toBe(true);
  });

  test('a timestamp is stored as ISO 8601 UTC; one that is not ISO 8601 is refused, quoting what came', () => {
    expect(readEvent(event({ timestamp: '2026-11-24T11:00:00+01:00' }))).toMatchObject({ value: { timestamp: '2026-11-24T10:00:00.000Z' } });
    expect(problemsOf(readEvent(event({ timestamp: 'yesterday' })))).toEqual([expect.stringContaining('(got "yesterday")')]);
  });

  test('text longer than its field is clipped, not refused', () => {
    const reading = readEvent(event({ message: 'm'.repeat(EVENT_TEXT.message + 50) }));
    expect(reading.ok && [...(reading.value.message ?? '')].length).toBeLessThanOrEqual(EVENT_TEXT.message);
  });

  test('a secret in free text is replaced before anything stores it, and counted per rule; the reporter is kept as given', () => {
    const reading = readEvent(event({ message: 'failed for ann@example.com', reporter: { email: 'ann@example.com', name: 'Ann' } }));
    expect(reading).toMatchObject({
      ok: true,
      value: { message: 'failed for [Filtered:email]', reporter: { email: 'ann@example.com', name: 'Ann' }, scrubbed: { email: 1 } },
    });
  });

  test('tags: strings only, at most the limit; a tag named __proto__ is a plain own key, one named like a credential loses its value', () => {
    const reading = readEvent(event({ tags: JSON.parse('{"plan": "pro", "__proto__": "x", "authToken": "abc"}') }));
    const tags = reading.ok ? (reading.value.tags ?? {}) : {};
    expect(Object.entries(tags)).toEqual([
      ['plan', 'pro'],
      ['__proto__', 'x'],
      ['authToken', '[Filtered:secret]'],
    ]);
    expect(Object.getPrototypeOf(tags)).toBe(Object.prototype);
    expect(problemsOf(readEvent(event({ tags: { plan: 3 } })))).toEqual(['tags.plan must be a string']);
    expect(problemsOf(readEvent(event({ tags: many(MAX_TAGS + 1, (i) => [`t${i}`, 'v']) })))).toEqual([
      `tags has ${MAX_TAGS + 1} entries: at most ${MAX_TAGS}`,
    ]);
  });

  test(`a fingerprint is 1 to ${MAX_FINGERPRINT_PARTS} strings`, () => {
    expect(readEvent(event({ fingerprint: ['checkout', 'declined'] }))).toMatchObject({ value: { fingerprint: ['checkout', 'declined'] } });
    expect(problemsOf(readEvent(event({ fingerprint: [] })))).toEqual([`fingerprint has 0 entries: send 1 to ${MAX_FINGERPRINT_PARTS} strings`]);
    expect(problemsOf(readEvent(event({ fingerprint: ['a', 2] })))).toEqual(['fingerprint[1] must be a string']);
  });

  test(`debug ids: script URL to a UUID (stored lowercase), at most ${MAX_DEBUG_IDS}`, () => {
    const url = 'https://shop.example.com/app.js';
    expect(readEvent(event({ debugIds: { [url]: ID } }))).toMatchObject({ value: { debugIds: { [url]: ID.toLowerCase() } } });
    expect(problemsOf(readEvent(event({ debugIds: { [url]: 'abc' } })))).toEqual([`debugIds["${url}"] must be a debug id (a UUID)`]);
    expect(problemsOf(readEvent(event({ debugIds: many(MAX_DEBUG_IDS + 1, (i) => [`${url}?${i}`, ID]) })))).toHaveLength(1);
  });
});

describe('a feature request, read', () => {
  test('needs a requestId and a title of at least 3 characters after trimming', () => {
    expect(readFeatureRequest({ requestId: ID, title: '  Dark mode ', category: null })).toEqual({
      ok: true,
      value: { requestId: ID.toLowerCase(), title: 'Dark mode' },
    });
    expect(problemsOf(readFeatureRequest({}))).toEqual(['requestId is required (a UUID)', 'title is required']);
    expect(problemsOf(readFeatureRequest({ requestId: ID, title: ' ab ' }))).toEqual(['title must have at least 3 characters after trimming (got "ab")']);
  });

  test('a body that is not an object is refused with an example', () => {
    expect(problemsOf(readFeatureRequest('Dark mode'))).toEqual([expect.stringContaining('{"requestId": "…", "title": "Dark mode"}')]);
  });
});

describe("the readers' small parts", () => {
  test('a UUID is 8-4-4-4-12 hex digits of any version; a time has a zone', () => {
    expect(UUID.test(ID)).toBe(true);
    expect(UUID.test('8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c1')).toBe(false);
    expect(ISO_TIME.test('2026-11-24T10:00:00.123+02:00')).toBe(true);
    expect(ISO_TIME.test('2026-11-24T10:00:00')).toBe(false);
  });

  test('a value quoted in a problem is cut at 60 characters; an object is neither null nor an array', () => {
    expect(quote('x'.repeat(61))).toBe(`"${'x'.repeat(60)}…"`);
    expect([isObject({}), isObject(null), isObject([])]).toEqual([true, false, false]);
  });
});
