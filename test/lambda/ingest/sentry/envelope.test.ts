import { jsonObjectOf, parseEnvelope } from '../../../../lambda/ingest/sentry/envelope';

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { refusal: (error as { refusal: string }).refusal, message: (error as Error).message };
  }
  return undefined;
};

test('an envelope item without a length ends at its newline; one with a length may hold newlines', () => {
  const payload = '{"a":\n1}';
  const envelope = parseEnvelope(Buffer.from(`{"event_id":"x"}\n{"type":"session"}\n{"s":1}\n{"type":"event","length":${payload.length}}\n${payload}`), 10);
  expect(envelope.items.map((item) => [item.type, item.payload.toString()])).toEqual([
    ['session', '{"s":1}'],
    ['event', payload],
  ]);
});

test('blank lines between items carry nothing', () => {
  expect(parseEnvelope(Buffer.from('{}\n\n{"type":"event"}\n{}\n\n'), 10).items).toHaveLength(1);
});

test("a malformed envelope is refused in words: empty, a header that is not JSON, an item without a type, a length past the body's end", () => {
  expect(refusal(() => parseEnvelope(Buffer.from(''), 10))).toMatchObject({ refusal: 'malformed', message: expect.stringMatching(/^The envelope is empty/) });
  expect(refusal(() => parseEnvelope(Buffer.from('{oops\n'), 10))).toMatchObject({
    refusal: 'malformed',
    message: 'The envelope header (its first line) is not valid JSON.',
  });
  expect(refusal(() => parseEnvelope(Buffer.from('{}\n{"length":1}\nx'), 10))).toMatchObject({ message: 'The header of item 1 has no type.' });
  expect(refusal(() => parseEnvelope(Buffer.from('{}\n{"type":"event","length":99}\n{}'), 10))).toMatchObject({
    message: expect.stringMatching(/says it is 99 bytes long, but only 2 bytes follow/),
  });
});

test('more items than the limit is too large', () => {
  expect(refusal(() => parseEnvelope(Buffer.from(`{}\n${'{"type":"session"}\n{}\n'.repeat(3)}`), 2))).toMatchObject({ refusal: 'too-large' });
});

test('an item is a JSON object, or a refusal naming what it is', () => {
  expect(jsonObjectOf(Buffer.from('{"a":1}'), 'The event')).toEqual({ a: 1 });
  expect(refusal(() => jsonObjectOf(Buffer.from('[1]'), 'The event'))).toMatchObject({ message: 'The event must be a JSON object.' });
});
