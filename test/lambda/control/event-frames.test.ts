import { withDisplayFrames } from '../../../lambda/control/event-frames';

/** An event's frames as shown: resolved again through maps when shown (with maps: test/control-room/event-frames.test.ts and test/browser/source-maps.test.ts). */
const STORED = {
  eventId: '00000000-0000-4000-8000-000000000001',
  factoryId: 'fac_a',
  exception: { type: 'TypeError', stack: 'TypeError: x\n    at o (https://shop.example.com/assets/app.js:2:54)' },
  frames: [{ fn: 'o', file: 'https://shop.example.com/assets/app.js', line: 2, column: 54, unresolved: 'no-debug-id' as const }],
};

describe('an event as shown', () => {
  test('without maps to read, its frames as resolved at ingest, each with its minified frame and why it was not resolved', async () => {
    const shown = await withDisplayFrames({}, STORED);
    expect(shown.frames).toEqual([
      { app: true, minified: { function: 'o', url: 'https://shop.example.com/assets/app.js', line: 2, column: 54 }, whyNotResolved: expect.any(String) },
    ]);
    expect(shown).toMatchObject({ eventId: STORED.eventId, exception: STORED.exception });
  });

  test('an event without a stack, or without its factory, is shown as stored', async () => {
    const noStack = { eventId: 'e', factoryId: 'fac_a', message: 'hi' };
    expect(await withDisplayFrames({}, noStack)).toBe(noStack);
    const { factoryId: _factory, ...anonymous } = STORED;
    expect(await withDisplayFrames({}, anonymous)).toBe(anonymous);
  });
});
