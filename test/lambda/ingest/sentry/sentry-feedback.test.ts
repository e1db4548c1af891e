import { FEEDBACK_TEXT } from '../../../../lambda/ingest/feedback/stored-feedback';
import { readFeedbackEvent, readUserReport } from '../../../../lambda/ingest/sentry/sentry-feedback';

const ID = '0123456789abcdef0123456789abcdef';
const UUID = '01234567-89ab-cdef-0123-456789abcdef';
const OTHER = 'fedcba9876543210fedcba9876543210';

describe('a feedback event (contexts.feedback)', () => {
  test('is read with its message, email (stored form), name, url and associated event', () => {
    const reading = readFeedbackEvent({
      event_id: ID,
      type: 'feedback',
      contexts: { feedback: { message: 'Broken', contact_email: ' Ada@Example.COM ', name: 'Ada', url: 'https://app.example/x', associated_event_id: OTHER } },
    });
    expect(reading).toEqual({
      ok: true,
      value: {
        feedbackId: UUID,
        source: 'feedback',
        message: 'Broken',
        associatedEventId: 'fedcba98-7654-3210-fedc-ba9876543210',
        url: 'https://app.example/x',
        reporter: { email: 'ada@example.com', name: 'Ada' },
      },
    });
  });

  test("takes the envelope header's event_id when the event has none, the user's email when no contact_email, the request's url when no url", () => {
    const reading = readFeedbackEvent(
      { contexts: { feedback: { message: 'hi' } }, user: { email: 'bob@example.com' }, request: { url: 'https://app.example/cart' } },
      ID,
    );
    expect(reading).toEqual({
      ok: true,
      value: expect.objectContaining({ feedbackId: UUID, reporter: { email: 'bob@example.com' }, url: 'https://app.example/cart' }),
    });
  });

  test('scrubs secrets from the message and emails from the name before clipping, counting what it replaced', () => {
    const reading = readFeedbackEvent({
      event_id: ID,
      contexts: { feedback: { message: `card 4111 1111 1111 1111 ${'x'.repeat(5000)}`, name: 'me: ada@example.com' } },
    });
    if (!reading.ok) throw new Error(reading.reason);
    expect(reading.value.message).not.toContain('4111');
    expect([...reading.value.message].length).toBe(FEEDBACK_TEXT.message);
    expect(reading.value.reporter?.name).not.toContain('ada@example.com');
    expect(reading.value.scrubbed).toEqual(expect.objectContaining({ card: 1, email: 1 }));
  });

  test('an address that is not one is dropped, the feedback kept', () => {
    const reading = readFeedbackEvent({ event_id: ID, contexts: { feedback: { message: 'hi', contact_email: 'not an address' } } });
    expect(reading).toEqual({ ok: true, value: expect.not.objectContaining({ reporter: expect.anything() }) });
  });

  test.each([
    ['no contexts.feedback', { event_id: ID }],
    ['no message', { event_id: ID, contexts: { feedback: { message: ' \n ' } } }],
    ['no event_id of 32 hex digits', { event_id: 'nope', contexts: { feedback: { message: 'hi' } } }],
  ])('is dropped with the reason: %s', (reason, raw) => {
    expect(readFeedbackEvent(raw)).toEqual({ ok: false, reason });
  });

  test('reads only own properties: a name on the prototype chain or named __proto__ is data, never a field', () => {
    const raw = JSON.parse(`{"event_id":"${ID}","contexts":{"__proto__":{"feedback":{"message":"proto"}}}}`);
    expect(readFeedbackEvent(raw)).toEqual({ ok: false, reason: 'no contexts.feedback' });
    const inherited = Object.create({ contexts: { feedback: { message: 'inherited' } } });
    inherited.event_id = ID;
    expect(readFeedbackEvent(inherited)).toEqual({ ok: false, reason: 'no contexts.feedback' });
  });
});

describe('a legacy user_report', () => {
  test('is keyed and tied by its event_id, its comments the message', () => {
    expect(readUserReport({ event_id: ID, email: 'bob@example.com', name: 'Bob', comments: 'It broke' })).toEqual({
      ok: true,
      value: { feedbackId: UUID, source: 'user_report', message: 'It broke', associatedEventId: UUID, reporter: { email: 'bob@example.com', name: 'Bob' } },
    });
  });

  test('without comments is dropped', () => {
    expect(readUserReport({ event_id: ID, email: 'bob@example.com' })).toEqual({ ok: false, reason: 'no message' });
  });
});
