import { pageItem, refOf, refText, type EventRef } from '../../../../../lambda/infrastructure/store/reports/feed-pages';

const ref = (receivedAt: string, type = 'error'): EventRef => ({ receivedAt, eventId: '0b5e7c2a9f3d4e6a8c1b2d3e4f5a6b7c', type });

describe('a feed page ref', () => {
  test('an error received at a millisecond ISO time is written as its base-36 epoch and its id only', () => {
    const text = refText(ref('2026-12-06T20:12:39.299Z'));
    expect(text).toBe(`${Date.parse('2026-12-06T20:12:39.299Z').toString(36)} 0b5e7c2a9f3d4e6a8c1b2d3e4f5a6b7c`);
    expect(text.length).toBeLessThan('2026-12-06T20:12:39.299Z 0b5e7c2a9f3d4e6a8c1b2d3e4f5a6b7c error'.length - 20);
  });

  test.each([
    ['an error', ref('2026-12-06T20:12:39.299Z')],
    ['feedback', ref('2026-12-06T20:12:39.000Z', 'feedback')],
    ['the first millisecond of 1970', ref('1970-01-01T00:00:00.000Z')],
    ['a time without milliseconds, kept as its text', ref('2026-12-06T20:12:39Z')],
    ['a time with an offset, kept as its text', ref('2026-12-06T21:12:39.299+01:00')],
  ])('%s reads back as it was written', (_name, written) => {
    expect(refOf(refText(written))).toEqual(written);
  });

  test('a ref of the earlier layout (ISO time, id, type) reads as before', () => {
    expect(refOf('2026-12-06T20:12:39.299Z 0b5e7c2a9f3d4e6a8c1b2d3e4f5a6b7c feedback')).toEqual(ref('2026-12-06T20:12:39.299Z', 'feedback'));
    expect(refOf('2026-12-06T20:12:39.299Z 0b5e7c2a9f3d4e6a8c1b2d3e4f5a6b7c error')).toEqual(ref('2026-12-06T20:12:39.299Z'));
  });

  test('a text without an event id is no ref', () => {
    expect(refOf('lq1x2abc')).toBeUndefined();
    expect(refOf('')).toBeUndefined();
  });

  test("a page's refs take at most two thirds of the bytes of the earlier layout", () => {
    const refs = Array.from({ length: 200 }, (_, i) => ref(new Date(Date.parse('2026-12-06T20:12:39.299Z') - i).toISOString()));
    const item = pageItem({ factoryId: 'fac_a' }, { shardKey: 's', firstSeq: '1', lastSeq: '2', part: 0 }, refs, 0);
    const bytes = (texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);
    const earlier = bytes(refs.map((r) => `${r.receivedAt} ${r.eventId} ${r.type}`));
    expect(bytes(item.refs as string[])).toBeLessThanOrEqual((earlier * 2) / 3);
  });
});
