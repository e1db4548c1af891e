import fc from 'fast-check';
import { batches, byteLength, eventsBody, halves, nextBatchSize } from '../../../browser-sdk/src/batch';

const item = (text: string) => ({ json: JSON.stringify({ message: text }), bytes: byteLength(JSON.stringify({ message: text })) });

describe('batching of the browser SDK', () => {
  test("the body is the events' JSON texts in the API's envelope", () => {
    expect(JSON.parse(eventsBody(['{"a":1}', '{"b":2}']))).toEqual({ events: [{ a: 1 }, { b: 2 }] });
    expect(byteLength('é')).toBe(2);
  });

  test('a request takes at most maxEvents events', () => {
    expect(nextBatchSize(Array(30).fill(10), 20, 60_000)).toBe(20);
  });

  test('a request stays within maxBytes, body included, but always takes at least one event', () => {
    expect(nextBatchSize([100, 100, 100], 20, eventsBody(['x'.repeat(100), 'x'.repeat(100)]).length)).toBe(2);
    expect(nextBatchSize([100_000, 10], 20, 32_768)).toBe(1);
  });

  test('batches cover the queue in order, each body within the limits unless one event alone is bigger (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 3000, unit: 'binary' }), { maxLength: 80 }),
        fc.integer({ min: 1, max: 20 }),
        fc.integer({ min: 200, max: 20_000 }),
        (texts, maxEvents, maxBytes) => {
          const items = texts.map(item);
          const split = batches(items, maxEvents, maxBytes);
          expect(split.flat()).toEqual(items);
          for (const batch of split) {
            expect(batch.length).toBeGreaterThan(0);
            expect(batch.length).toBeLessThanOrEqual(maxEvents);
            if (batch.length > 1) expect(byteLength(eventsBody(batch.map((one) => one.json)))).toBeLessThanOrEqual(maxBytes);
          }
        },
      ),
    );
  });

  test('a refused batch splits into two halves that keep every event in order', () => {
    expect(halves([1, 2, 3, 4, 5])).toEqual([
      [1, 2, 3],
      [4, 5],
    ]);
    expect(halves([1, 2])).toEqual([[1], [2]]);
  });
});
