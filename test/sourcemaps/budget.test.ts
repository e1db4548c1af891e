import { sourceMapsFromEnv } from '../../lambda/ingest/api/ingest-wiring';
import { sourceMapBudgetFromEnv } from '../../lambda/ingest/sourcemaps/limits';

// SOURCE_MAP_BUDGET_MS (docs/source-maps.md#resolving): set only by tests, so anything but a positive whole
// number of milliseconds leaves the budgets as the stack runs them.
test.each([
  ['60000', 60_000],
  [undefined, undefined],
  ['', undefined],
  ['0', undefined],
  ['-5', undefined],
  ['1.5', undefined],
  ['a minute', undefined],
])('SOURCE_MAP_BUDGET_MS=%j: a wait for maps of %j ms (undefined: the default budgets)', (value, budget) => {
  const env = value === undefined ? {} : { SOURCE_MAP_BUDGET_MS: value };
  expect(sourceMapBudgetFromEnv(env)).toBe(budget);
  expect(sourceMapsFromEnv({ SOURCE_MAPS_BUCKET: 'maps', ...env }).sourceMapBudgetMs).toBe(budget);
});

test('without a maps bucket there is no budget either: frames are grouped as sent', () => {
  expect(sourceMapsFromEnv({ SOURCE_MAP_BUDGET_MS: '60000' })).toEqual({});
});
