import { readSentryEvent } from '../../../../lambda/ingest/sentry/sentry-event';

const ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('a Sentry event read by the own reader', () => {
  test('is an own event with its frames kept as sent, cleaned', () => {
    const reading = readSentryEvent({
      event_id: ID,
      exception: {
        values: [{ type: 'ValueError', value: 'bad', stacktrace: { frames: [{ function: 'handle', module: 'shop.orders', lineno: 12, in_app: true }] } }],
      },
    });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    expect(reading.value).toMatchObject({ eventId: 'a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90', type: 'error', exception: { type: 'ValueError', value: 'bad' } });
    expect(reading.value.sdkFrames).toEqual([{ function: 'handle', module: 'shop.orders', line: 12, inApp: true }]);
  });

  test("secrets in a frame's text are scrubbed, and counted with the rest of the event's", () => {
    const reading = readSentryEvent({
      event_id: ID,
      exception: { values: [{ type: 'E', value: 'v', stacktrace: { frames: [{ function: 'f', context_line: 'token = "Bearer abc123def456ghi789"' }] } }] },
    });
    expect(reading.ok && reading.value.sdkFrames?.[0]?.contextLine).toMatch(/\[Filtered:bearer\]/);
    expect(reading.ok && reading.value.scrubbed).toMatchObject({ bearer: 1 });
  });

  test('a secret in a text repeated frame after frame is scrubbed in each and counted once per frame', () => {
    const file = 'https://shop.example.com/app.js?token=ghp_abcdefghijklmnopqrstuvwxyz0123456789';
    const frames = ['a', 'b', 'a'].map((fn, index) => ({ function: fn, abs_path: file, lineno: index + 1, context_line: 'x', pre_context: ['x', 'x'] }));
    const reading = readSentryEvent({ event_id: ID, exception: { values: [{ type: 'E', value: 'v', stacktrace: { frames } }] } });
    expect(reading.ok).toBe(true);
    if (!reading.ok) return;
    const stored = reading.value.sdkFrames ?? [];
    expect(stored.map((frame) => frame.function)).toEqual(['a', 'b', 'a']);
    expect(new Set(stored.map((frame) => frame.file))).toEqual(new Set(['https://shop.example.com/app.js?token=[Filtered:token]']));
    // Three frames' URLs, and the stack text's three lines that name them (the own reader's): six.
    expect(reading.value.scrubbed).toEqual({ token: 6 });
  });

  test('an event the own reader refuses (no message, no exception) is refused in its words', () => {
    const reading = readSentryEvent({ event_id: ID });
    expect(reading.ok).toBe(false);
  });
});
