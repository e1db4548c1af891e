import { configure, DEFAULTS } from '../../../browser-sdk/src/defaults';

const REQUIRED = { key: 'dfpk_test', baseUrl: 'https://api.example.com' };

describe("init()'s options with their defaults", () => {
  test('what is not given takes its default; what is given stays', () => {
    const config = configure({ ...REQUIRED, flushDelayMs: 50, release: 'web@1' });
    expect(config).toMatchObject({ ...DEFAULTS, flushDelayMs: 50, release: 'web@1', key: 'dfpk_test' });
  });

  test('an option given as undefined takes its default too', () => {
    expect(configure({ ...REQUIRED, maxRetries: undefined }).maxRetries).toBe(DEFAULTS.maxRetries);
  });

  test("the base URL loses its trailing slashes, so the SDK's paths join it once", () => {
    expect(configure({ ...REQUIRED, baseUrl: 'https://api.example.com///' }).baseUrl).toBe('https://api.example.com');
  });

  test("a request's events and bytes are kept within the API's limits: 1 to 20 events, at most 64 KiB", () => {
    expect(configure({ ...REQUIRED, maxBatchEvents: 500 }).maxBatchEvents).toBe(20);
    expect(configure({ ...REQUIRED, maxBatchEvents: 0 }).maxBatchEvents).toBe(1);
    expect(configure({ ...REQUIRED, maxRequestBytes: 1_000_000 }).maxRequestBytes).toBe(65_536);
  });

  test("by default a request holds half the browser's keepalive budget, and an event is tried 4 times", () => {
    expect([DEFAULTS.maxRequestBytes, DEFAULTS.maxRetries + 1]).toEqual([32_768, 4]);
  });
});
