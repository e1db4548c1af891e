/**
 * The source-map limits (issue 41), one place for the uploader (lambda/infrastructure/store/source-maps, the sourcemaps command)
 * and the resolver (lambda/ingest/sourcemaps): a map over MAX_MAP_BYTES is refused at upload and never parsed.
 */

/** A map's largest size at upload: a 20 MB map must work, so 50 MiB leaves room. */
export const MAX_MAP_BYTES = 50 * 1024 * 1024;

/**
 * Stored maps expire this many days after their upload (the bucket's lifecycle rule, lib/source-maps.ts), and a
 * repeat upload of a map stored more than MAP_REFRESH_DAYS ago stores it again, which restarts its time: a CI that
 * uploads on every deploy keeps the maps of a release that stays live for years.
 */
export const MAP_RETENTION_DAYS = 400;
export const MAP_REFRESH_DAYS = 300;

/**
 * SOURCE_MAP_BUDGET_MS: how long a request waits for maps, at ingest and when an event is shown, in place of
 * their budgets. The stack never sets it; a test's npm start and commands do, so that a map read a loaded
 * machine delays still resolves instead of changing what the test sees (docs/source-maps.md#resolving).
 */
export function sourceMapBudgetFromEnv(env: NodeJS.ProcessEnv): number | undefined {
  const ms = Number(env.SOURCE_MAP_BUDGET_MS);
  return Number.isSafeInteger(ms) && ms > 0 ? ms : undefined;
}
