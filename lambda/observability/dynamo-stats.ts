import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** DynamoDB calls made on behalf of one request: how many, and how long each took (SDK retries included). */
export interface DynamoStats {
  calls: number;
  latenciesMs: number[];
}

// Requests can overlap in one process (the local server), so the stats of the
// request in progress travel with its async context rather than in a global.
const scope = new AsyncLocalStorage<DynamoStats>();

/** Runs `work` with fresh stats that every DynamoDB call inside it adds to. */
export function withDynamoStats<T>(work: (stats: DynamoStats) => Promise<T>): Promise<T> {
  const stats: DynamoStats = { calls: 0, latenciesMs: [] };
  return scope.run(stats, () => work(stats));
}

/** The stats of the request in progress, if any. */
export function currentDynamoStats(): DynamoStats | undefined {
  return scope.getStore();
}

/**
 * Adds every call made through `client` to the current request's stats. A
 * call outside any request (the CLI, tests) is not counted. One context lookup
 * and two clock reads per call: cheap enough to stay on in production.
 */
export function recordDynamoCalls(client: DynamoDBClient): void {
  client.middlewareStack.add(
    (next) => async (args) => {
      const stats = scope.getStore();
      if (!stats) return next(args);
      stats.calls += 1;
      const startedAt = performance.now();
      try {
        return await next(args);
      } finally {
        stats.latenciesMs.push(Math.round((performance.now() - startedAt) * 10) / 10);
      }
    },
    { step: 'initialize', name: 'recordDynamoCalls', override: true },
  );
}
