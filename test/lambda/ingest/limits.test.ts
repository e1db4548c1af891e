import { perMinutePolicy } from '../../../lambda/kernel/rate-limit';
import {
  DEFAULT_ADDRESS_LIMITS,
  EVENT_TEXT,
  INGEST_BODY_LIMIT_BYTES,
  issueRequestPolicy,
  MAX_EVENTS_PER_REQUEST,
  ratePolicy,
} from '../../../lambda/ingest/limits';

describe("the ingest API's limits", () => {
  test('a request: at most 64 KiB and 20 events', () => {
    expect([INGEST_BODY_LIMIT_BYTES, MAX_EVENTS_PER_REQUEST]).toEqual([65_536, 20]);
  });

  test('a rate of n per period allows a burst of a tenth, as the keys do', () => {
    expect(ratePolicy(600, 60_000)).toEqual(perMinutePolicy(600));
    expect(ratePolicy(10, 3_600_000)).toEqual({ limit: 10, periodMs: 3_600_000, burst: 1 });
  });

  test("an issue may take half its key's requests per minute, and at least one", () => {
    expect(issueRequestPolicy(600).limit).toBe(300);
    expect(issueRequestPolicy(1).limit).toBe(1);
  });

  test("one visitor's address: 60 requests a minute, 10 feature requests an hour", () => {
    expect([DEFAULT_ADDRESS_LIMITS.requests.limit, DEFAULT_ADDRESS_LIMITS.featureRequests.limit, DEFAULT_ADDRESS_LIMITS.featureRequests.periodMs]).toEqual([
      60, 10, 3_600_000,
    ]);
  });

  test("an event's free text has a bound per field", () => {
    expect(Object.values(EVENT_TEXT).every((max) => Number.isInteger(max) && max > 0)).toBe(true);
  });
});
