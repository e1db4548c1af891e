import { randomUUID } from 'node:crypto';
import { frameResolverOf } from '../../lambda/ingest/api/ingest-wiring';
import { hashSecret } from '../../lambda/kernel/api-key';
import type { PublishableKey } from '../../lambda/ingest/ports';
import { LimitedError } from '../../lambda/ingest/errors';
import { receiveEvents, type RequestReceipt } from '../../lambda/ingest/receive-events';
import { MemoryIngestKeys } from '../../lambda/infrastructure/memory/memory-ingest-keys';
import { MemoryIssueLimiter } from '../../lambda/infrastructure/memory/memory-issue-limiter';
import { MemoryReportStore } from '../../lambda/infrastructure/memory/memory-report-store';
import { MemorySourceMapStore } from '../../lambda/infrastructure/memory/memory-source-map-store';
import { buildBoth, throwIn, type BuiltApp } from '../support/source-map-app';

/**
 * The fair share of a source-mapped bug (docs/capacity.md#fair-shares-per-issue-and-per-key): once its maps are
 * uploaded, one bug thrown by two builds whose minifier named its functions differently is one issue, and takes
 * one issue limit, not one per build (the storm benchmark showed a bug of two builds taking both halves of its key,
 * and the key's other errors refused: docs/capacity.md#source-mapped-and-sentry-storms).
 */

const FACTORY = 'fac_maps_share';
const KEY_HASH = hashSecret('dfpk_maps_share');
// 60 requests a minute: each issue may take 30 (one every 2 s, a burst of 3).
const key: PublishableKey = { factoryId: FACTORY, keyId: 'key_0000000000000031', origins: ['https://shop.example.com'], rateLimit: 60 };

let builds: [BuiltApp, BuiltApp];
beforeAll(async () => {
  builds = await buildBoth();
});

/** Events accepted out of `apps`, one request a second (the key's own rate), on fresh limits with both maps uploaded. */
async function acceptedOf(apps: readonly BuiltApp[]): Promise<number> {
  const reports = new MemoryReportStore();
  const maps = new MemorySourceMapStore();
  const keys = new MemoryIngestKeys();
  keys.issue(KEY_HASH, { type: 'publishable', factoryId: FACTORY, keyId: key.keyId, rateLimit: key.rateLimit, origins: key.origins });
  for (const app of builds) maps.put(FACTORY, { kind: 'debugId', debugId: app.debugId }, app.map);
  const deps = { reports, issueLimits: new MemoryIssueLimiter(), keys, frames: frameResolverOf(maps) };
  let clock = Date.parse('2026-11-27T10:00:00Z');
  let accepted = 0;
  for (const app of apps) {
    clock += 1000;
    const thrown = throwIn(app);
    const receipt: RequestReceipt = {
      factoryId: FACTORY,
      keyId: key.keyId,
      origin: 'https://shop.example.com',
      receivedAt: new Date(clock).toISOString(),
      expiresAt: 1_900_000_000,
      requestToken: randomUUID(),
    };
    const body = {
      events: [
        {
          eventId: randomUUID(),
          type: 'error',
          message: `${thrown.type}: ${thrown.value}`,
          exception: thrown,
          ...(thrown.debugIds ? { debugIds: thrown.debugIds } : {}),
        },
      ],
    };
    try {
      accepted += (await receiveEvents(deps, body, receipt, { key, keyHash: KEY_HASH }, clock)).accepted;
    } catch (error) {
      if (!(error instanceof LimitedError)) throw error;
    }
  }
  return accepted;
}

test('one bug thrown by two builds takes one issue limit: alternating builds gets no more through than one build alone', async () => {
  const [build1, build2] = builds;
  const oneBuild = await acceptedOf(Array.from({ length: 20 }, () => build1));
  const twoBuilds = await acceptedOf(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? build1 : build2)));
  // Its share held it back: fewer than the 20 sent got through.
  expect(oneBuild).toBeLessThan(20);
  expect(twoBuilds).toBe(oneBuild);
});
