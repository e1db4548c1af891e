import { MAP_REFRESH_DAYS, MAP_RETENTION_DAYS, MAX_MAP_BYTES, sourceMapBudgetFromEnv } from '../../../../lambda/ingest/sourcemaps/limits';

describe('the source-map limits', () => {
  test('a map of 20 MB fits; a map is stored again before it would expire', () => {
    expect(MAX_MAP_BYTES).toBeGreaterThan(20 * 1024 * 1024);
    expect(MAP_REFRESH_DAYS).toBeLessThan(MAP_RETENTION_DAYS);
  });

  test('SOURCE_MAP_BUDGET_MS, when a positive whole number, sets how long a request waits for maps', () => {
    expect(sourceMapBudgetFromEnv({ SOURCE_MAP_BUDGET_MS: '5000' })).toBe(5000);
    for (const value of [undefined, '', '0', '-1', 'soon', '1.5']) expect(sourceMapBudgetFromEnv({ SOURCE_MAP_BUDGET_MS: value })).toBeUndefined();
  });
});
