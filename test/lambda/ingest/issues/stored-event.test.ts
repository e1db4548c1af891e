import { EVENT_TYPES, FILTER_REASONS, newestEventFirst, REPORT_ID_PATTERN } from '../../../../lambda/ingest/issues/stored-event';

describe('a stored event', () => {
  test("events are listed newest first; one instant's by eventId, descending", () => {
    const list = [
      { receivedAt: '2026-11-21T09:00:00.000Z', eventId: 'a' },
      { receivedAt: '2026-11-21T09:00:01.000Z', eventId: 'a' },
      { receivedAt: '2026-11-21T09:00:00.000Z', eventId: 'b' },
    ].sort(newestEventFirst);
    expect(list.map((event) => `${event.receivedAt.slice(17, 19)} ${event.eventId}`)).toEqual(['01 a', '00 b', '00 a']);
  });

  test('its id is a lowercase UUID', () => {
    expect(REPORT_ID_PATTERN.test('8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11')).toBe(true);
    expect(REPORT_ID_PATTERN.test('8F0C1A52-3B6E-4C7E-9A43-2F5D1E0B7C11')).toBe(false);
  });

  test('it is an error, a bug report or a message; filtered for a browser extension or a cross-origin "Script error."', () => {
    expect([...EVENT_TYPES]).toEqual(['error', 'bug_report', 'message']);
    expect([...FILTER_REASONS]).toEqual(['browser-extension', 'script-error']);
  });
});
