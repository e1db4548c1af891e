import { scrubbedLogField, scrubbedMetrics } from '../../../../lambda/ingest/api/scrubbed-metrics';

describe("what the scrubber replaced, in a request's record", () => {
  test('as metrics, one per rule that replaced something', () => {
    expect(scrubbedMetrics({ card: 2, email: 1, iban: 0 })).toEqual({ ScrubbedCard: 2, ScrubbedEmail: 1 });
    expect(scrubbedMetrics({})).toEqual({});
  });

  test('as one short field of the log line: rule names and counts, never a value', () => {
    expect(scrubbedLogField({ card: 1, email: 2 })).toBe('card:1,email:2');
  });
});
