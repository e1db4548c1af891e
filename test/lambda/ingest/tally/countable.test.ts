import { countableEvent, isSetAside } from '../../../../lambda/ingest/tally/countable';

/** Which stored events the tally can count, and why another is set aside (lambda/ingest/tally/countable.ts). */
const SEQ = '0000000000000000000000000000000000000042';
const KEY = { factoryId: 'fac_countable', eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11' };

const stored = (fields: Record<string, unknown> = {}): Record<string, unknown> => ({
  ...KEY,
  keyId: 'key_1',
  origin: 'https://shop.example',
  receivedAt: '2031-03-01T12:00:00.000Z',
  expiresAt: 1_930_000_000,
  writeToken: 'w1',
  type: 'error',
  message: 'TypeError: x is undefined',
  issueId: 'iss_0123456789abcdef0123',
  ...fields,
});

test('an event with every field the tally reads in its kind is counted as it is', () => {
  const event = stored({
    release: 'web@1',
    visitor: 'AbCdEfGh',
    tags: { anything: 'goes' },
    exception: { type: 'TypeError', value: 'x is undefined', stack: 'at f (https://shop.example/a.js:1:2)' },
    fingerprint: ['checkout'],
    sdkFrames: [{}, { function: 'f', file: 'app.js', line: 3, inApp: true }],
    frames: [{ fn: 'f', file: 'https://shop.example/a.js', line: 1, column: 2, original: { source: 'src/a.ts', line: 4, column: 1 } }],
  });
  expect(countableEvent(SEQ, KEY, event)).toEqual({ seq: SEQ, event });
});

test('a filtered event (no issue) is counted, on its filtered counts', () => {
  const reading = countableEvent(SEQ, KEY, stored({ issueId: undefined, filtered: 'script-error' }));
  expect(isSetAside(reading)).toBe(false);
});

test.each([
  ['receivedAt', { receivedAt: 'yesterday' }],
  ['receivedAt', { receivedAt: undefined }],
  ['expiresAt', { expiresAt: '1930000000' }],
  ['eventId', { eventId: '' }],
  ['type', { type: 7 }],
  ['filtered', { filtered: 'spam' }],
  ['fingerprint', { fingerprint: 'checkout' }],
  ['fingerprint', { fingerprint: ['ok', 3] }],
  ['exception', { exception: 'TypeError' }],
  ['sdkFrames', { sdkFrames: {} }],
  ['sdkFrames', { sdkFrames: [{ line: 'three' }] }],
  ['sdkFrames', { sdkFrames: [null] }],
  ['frames', { frames: [{ fn: 'f' }] }],
  ['message', { message: { text: 'x' } }],
])('an event whose %s is missing or of another kind is set aside as malformed, naming the field', (field, fields) => {
  expect(countableEvent(SEQ, KEY, stored(fields))).toEqual({ seq: SEQ, ...KEY, reason: 'malformed', detail: field });
});

test('an event stored under another factory or eventId than its own is set aside (it would be counted where it is not stored)', () => {
  expect(countableEvent(SEQ, { ...KEY, factoryId: 'fac_other' }, stored())).toMatchObject({ reason: 'malformed', factoryId: 'fac_other', detail: 'factoryId' });
  expect(countableEvent(SEQ, { ...KEY, eventId: 'another' }, stored())).toMatchObject({ reason: 'malformed', detail: 'eventId' });
});

test("fields named as objects' built-ins are data: an own __proto__ lends the event no field, a constructor is ignored", () => {
  const hostile = JSON.parse('{"constructor": "x", "__proto__": {"receivedAt": "2031-03-01T12:00:00.000Z"}}') as Record<string, unknown>;
  expect(isSetAside(countableEvent(SEQ, KEY, stored(hostile)))).toBe(false);
  expect(countableEvent(SEQ, KEY, { ...stored({ receivedAt: undefined }), ...hostile })).toMatchObject({ reason: 'malformed', detail: 'receivedAt' });
});
