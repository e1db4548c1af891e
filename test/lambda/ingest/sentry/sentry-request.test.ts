import { MAX_EVENTS_PER_REQUEST } from '../../../../lambda/ingest/limits';
import { readEnvelopeRequest, readStoreRequest } from '../../../../lambda/ingest/sentry/sentry-request';

const envelope = (...items: [string, string][]) =>
  Buffer.from(`{"event_id":"${'a'.repeat(32)}"}\n${items.map(([type, payload]) => `{"type":"${type}"}\n${payload}\n`).join('')}`);
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return { refusal: (error as { refusal: string }).refusal, message: (error as Error).message };
  }
  return undefined;
};

describe('a Sentry envelope, framed', () => {
  test('its events are kept as sent, its sessions read (one without a release counted unreadable), every other item dropped and counted by its type', () => {
    const request = readEnvelopeRequest(
      envelope(['event', '{"message":"hi"}'], ['session', '{}'], ['session', '{}'], ['transaction', '{}'], ['mystery', '{}']),
    );
    expect(request).toEqual({
      header: { event_id: 'a'.repeat(32) },
      events: [{ message: 'hi' }],
      feedback: [],
      dropped: { transaction: 1, other: 1 },
      sessions: { updates: [], aggregates: [], discarded: [], invalid: 2 },
    });
  });

  test('its feedback and user reports are kept as sent, in order, for the feedback reader (never counted dropped here)', () => {
    const request = readEnvelopeRequest(envelope(['feedback', '{"contexts":{"feedback":{"message":"a"}}}'], ['user_report', '{"comments":"b"}']));
    expect(request.feedback).toEqual([
      { source: 'feedback', raw: { contexts: { feedback: { message: 'a' } } } },
      { source: 'user_report', raw: { comments: 'b' } },
    ]);
    expect(request.dropped).toEqual({});
  });

  test('more events than one own-SDK request may carry is too large', () => {
    const many = Array.from({ length: MAX_EVENTS_PER_REQUEST + 1 }, (): [string, string] => ['event', '{}']);
    expect(refusal(() => readEnvelopeRequest(envelope(...many)))).toMatchObject({ refusal: 'too-large' });
  });

  test('an event item that is not a JSON object is refused, naming the item', () => {
    expect(refusal(() => readEnvelopeRequest(envelope(['session', '{}'], ['event', '[1]'])))).toMatchObject({
      refusal: 'malformed',
      message: 'Item 2 (event) must be a JSON object.',
    });
  });
});

describe("the legacy store endpoint's body", () => {
  test('is one event as JSON', () => {
    expect(readStoreRequest(Buffer.from('{"message":"hi"}'))).toEqual({
      header: {},
      events: [{ message: 'hi' }],
      feedback: [],
      dropped: {},
      sessions: { updates: [], aggregates: [], discarded: [], invalid: 0 },
    });
  });

  test('empty or not JSON is refused in words', () => {
    expect(refusal(() => readStoreRequest(Buffer.alloc(0)))).toMatchObject({ message: 'The body is empty: send one event as JSON.' });
    expect(refusal(() => readStoreRequest(Buffer.from('nope')))).toMatchObject({ refusal: 'malformed' });
  });
});
