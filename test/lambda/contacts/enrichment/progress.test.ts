import { bulkProgress } from '../../../../lambda/contacts/enrichment/progress';
import { contactCursor } from '../../../../lambda/kernel/cursor';

describe("a bulk run's progress, from its cursor", () => {
  test('nothing read is 0, done is 1', () => {
    expect(bulkProgress('fac_a', undefined, false)).toBe(0);
    expect(bulkProgress('fac_a', contactCursor.encode('fac_a', 'ct_8000000000000000'), true)).toBe(1);
  });

  test('is the share of the id range behind the last contact read (ids are spread evenly)', () => {
    expect(bulkProgress('fac_a', contactCursor.encode('fac_a', 'ct_8000000000000000'), false)).toBe(0.5);
    expect(bulkProgress('fac_a', contactCursor.encode('fac_a', 'ct_4000000000000000'), false)).toBe(0.25);
  });

  test("another factory's cursor or a cursor that is no cursor says nothing: 0", () => {
    expect(bulkProgress('fac_b', contactCursor.encode('fac_a', 'ct_8000000000000000'), false)).toBe(0);
    expect(bulkProgress('fac_a', 'garbage', false)).toBe(0);
  });
});
