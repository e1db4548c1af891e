import { debugIdsOf, eventUuidOf, mapSentryEvent, MAX_FRAMES } from '../../../../lambda/ingest/sentry/event-map';

/** A Sentry event in the own shape (docs/sentry-sdks.md#what-is-kept-and-what-is-dropped): its public behaviour, what the own reader then checks. */
const ID = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';

describe('a Sentry event mapped onto an own event', () => {
  test("Sentry's 32 hex digits become the UUID the own events use; the envelope's id serves when the event has none", () => {
    expect(eventUuidOf(ID)).toBe('a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90');
    expect(eventUuidOf('A1B2C3D4-E5F6-0718-293A-4B5C6D7E8F90')).toBe('a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90');
    expect(eventUuidOf('short')).toBeUndefined();
    expect(mapSentryEvent({}, ID).event.eventId).toBe('a1b2c3d4-e5f6-0718-293a-4b5c6d7e8f90');
  });

  test('an exception is an error with its type, value and frames, top first', () => {
    const { event, frames } = mapSentryEvent({
      event_id: ID,
      exception: {
        values: [
          {
            type: 'TypeError',
            value: 'x is undefined',
            stacktrace: {
              frames: [
                { function: 'outer', filename: 'app.js' },
                { function: 'inner', filename: 'app.js', in_app: true },
              ],
            },
          },
        ],
      },
    });
    expect(event).toMatchObject({ type: 'error', exception: { type: 'TypeError', value: 'x is undefined' } });
    expect(frames.map((frame) => frame.function)).toEqual(['inner', 'outer']);
    expect(frames[0]?.inApp).toBe(true);
  });

  test('a message is a message; a timestamp in seconds or RFC 3339 is kept as ISO', () => {
    expect(mapSentryEvent({ event_id: ID, message: 'hello', timestamp: 1_795_000_000 }).event).toMatchObject({
      type: 'message',
      message: 'hello',
      timestamp: new Date(1_795_000_000_000).toISOString(),
    });
    expect(mapSentryEvent({ event_id: ID, logentry: { formatted: 'from logentry' }, timestamp: 'yesterday' }).event).toMatchObject({
      message: 'from logentry',
      timestamp: undefined,
    });
  });

  test('the release, the page, the tags and the reporter come along', () => {
    const { event } = mapSentryEvent({
      event_id: ID,
      message: 'm',
      release: 'web@2',
      request: { url: 'https://shop.example/cart' },
      tags: { plan: 'pro' },
      user: { email: 'ada@example.com' },
    });
    expect(event).toMatchObject({ release: 'web@2', pageUrl: 'https://shop.example/cart', tags: { plan: 'pro' }, reporter: { email: 'ada@example.com' } });
  });

  test(`at most ${MAX_FRAMES} frames are kept`, () => {
    const frames = Array.from({ length: 80 }, (_, n) => ({ function: `f${n}`, filename: 'a.js' }));
    expect(mapSentryEvent({ event_id: ID, exception: { values: [{ type: 'E', value: 'v', stacktrace: { frames } }] } }).frames).toHaveLength(MAX_FRAMES);
  });

  test('the debug ids of its source-map images, as the own SDK sends them; a malformed one skipped', () => {
    const raw = {
      debug_meta: {
        images: [
          { type: 'sourcemap', code_file: 'https://shop.example/app.js', debug_id: '3D11FDBB678D44ECA3B6B8F35FFEBDB2' },
          { type: 'sourcemap', code_file: 'https://shop.example/bad.js', debug_id: 'nope' },
          { type: 'elf', code_file: 'x', debug_id: '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' },
        ],
      },
    };
    expect(debugIdsOf(raw)).toEqual({ 'https://shop.example/app.js': '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' });
    expect(debugIdsOf({})).toBeUndefined();
  });
});
