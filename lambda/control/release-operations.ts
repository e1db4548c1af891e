import * as z from 'zod/mini';
import { ISSUES_SCAN_MAX } from '../ingest/issues/issue-list';
import { issueView, type Issue } from '../ingest/issues/issue';
import { ADOPTION_HOURS, firstHours, hourlyBuckets, lastHours, releaseRefId, releaseSummary, startedIn, TREND_HOURS } from '../ingest/sessions/release-health';
import { RELEASE_MAX } from '../ingest/sessions/release-name';
import type { ReleasePosition, ReleaseRecord, ReleaseStore } from '../ingest/sessions/ports';
import { listCursor } from '../kernel/cursor';
import { cursor, described, factoryId, limit } from './fields';
import { ControlError, operation, withCursor } from './operation';
import type { ControlDependencies } from './ports';

/** Releases per page of `reports releases`. */
export const RELEASES_DEFAULT = 20;
export const RELEASES_MAX = 100;
/** Releases read at most to find one named without its environment. */
const RELEASES_SEARCHED = 500;

const releaseField = described(
  z
    .string({ error: 'release must be a string' })
    .check(z.minLength(1, { error: 'release must not be empty' }), z.maxLength(RELEASE_MAX, { error: `release must be at most ${RELEASE_MAX} characters` })),
  { placeholder: 'release' },
);
const environmentField = z.optional(
  described(
    z
      .string({ error: 'environment must be a string' })
      .check(z.minLength(1, { error: 'environment must not be empty' }), z.maxLength(64, { error: 'environment must be at most 64 characters' })),
    {
      placeholder: 'env',
    },
  ),
);

const releaseCursor = listCursor<ReleasePosition>('releases', (value) => {
  const { firstSeen, key } = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  return typeof firstSeen === 'string' && typeof key === 'string' ? { firstSeen, key } : undefined;
});

function releasesOf(deps: ControlDependencies): ReleaseStore {
  if (!deps.releases) throw new ControlError(500, 'release health is not wired to this control room (no reports table)');
  return deps.releases;
}

/** Each release's summary: its counters and rates, and its adoption over the last day. */
async function summaries(store: ReleaseStore, factoryId: string, records: readonly ReleaseRecord[], nowMs: number) {
  const day = lastHours(nowMs, ADOPTION_HOURS);
  const [hours, factoryHours] = await Promise.all([store.releaseHours(factoryId, records, day), store.factoryHours(factoryId, day)]);
  const factoryStarted = [...factoryHours.values()].reduce((sum, n) => sum + n, 0);
  return records.map((record) => releaseSummary(record, startedIn(hours.get(releaseRefId(record))), factoryStarted));
}

/** The release named, in the environment given, or the newest of that name. */
async function findNamed(store: ReleaseStore, factoryId: string, release: string, environment: string | undefined): Promise<ReleaseRecord | undefined> {
  if (environment !== undefined) return store.findRelease(factoryId, { environment, release });
  let after: ReleasePosition | undefined;
  for (let read = 0; read < RELEASES_SEARCHED; read += RELEASES_MAX) {
    const page = await store.listReleases(factoryId, { limit: RELEASES_MAX, ...(after ? { after } : {}) });
    const found = page.releases.find((record) => record.release === release);
    if (found || !page.next) return found;
    after = page.next;
  }
  return undefined;
}

/** Issues first seen in the release, and those that came back in it (regressed since it was first seen). */
async function issuesOf(deps: ControlDependencies, record: ReleaseRecord, nowMs: number): Promise<{ newIssues: Issue[]; regressedIssues: Issue[] }> {
  const issues = await deps.issues.listIssues(record.factoryId, { limit: ISSUES_SCAN_MAX, nowMs });
  return {
    newIssues: issues.filter((issue) => issue.firstRelease === record.release),
    regressedIssues: issues.filter(
      (issue) =>
        (issue.regressions ?? 0) > 0 && issue.lastRelease === record.release && issue.regressedAt !== undefined && issue.regressedAt >= record.firstSeen,
    ),
  };
}

/**
 * Release health (docs/release-health.md): the factory's releases that sent sessions, newest first, and one release
 * with its hours and issues. Audit fields: counts only.
 */
export const RELEASE_OPERATIONS = {
  'releases.list': operation({
    request: z.strictObject({ factoryId, environment: environmentField, limit: limit(RELEASES_MAX), cursor }),
    defaults: (request) => ({ ...request, limit: request.limit ?? RELEASES_DEFAULT }),
    run: async (request, { deps, now }) => {
      const store = releasesOf(deps);
      const { factoryId: factory, environment, limit: wanted } = request;
      let after = request.cursor === undefined ? undefined : releaseCursor.decode(request.cursor, factory);
      const records: ReleaseRecord[] = [];
      let next: ReleasePosition | undefined;
      // An environment filters the newest-first list: pages are read until the page is full or the list ends.
      for (let pages = 0; pages < 10 && records.length < wanted; pages += 1) {
        const page = await store.listReleases(factory, { limit: wanted - records.length, ...(after ? { after } : {}) });
        records.push(...page.releases.filter((record) => environment === undefined || record.environment === environment));
        next = page.next;
        if (!next) break;
        after = next;
      }
      const releases = await summaries(store, factory, records, now.getTime());
      const more = next === undefined ? undefined : releaseCursor.encode(factory, next);
      return { body: { releases, ...withCursor(more) }, audit: { count: releases.length, more: more !== undefined } };
    },
  }),

  'releases.show': operation({
    request: z.strictObject({ factoryId, release: releaseField, environment: environmentField }),
    run: async (request, { deps, now }) => {
      const store = releasesOf(deps);
      const nowMs = now.getTime();
      const record = await findNamed(store, request.factoryId, request.release, request.environment);
      if (!record)
        throw new ControlError(
          404,
          `no release "${request.release}"${request.environment ? ` in ${request.environment}` : ''} in ${request.factoryId} has sent sessions`,
        );
      const [[summary], hours, issues] = await Promise.all([
        summaries(store, request.factoryId, [record], nowMs),
        store.releaseHours(
          request.factoryId,
          [record],
          [...new Set([...firstHours(record.firstSeen, nowMs, TREND_HOURS), ...lastHours(nowMs, ADOPTION_HOURS)])],
        ),
        issuesOf(deps, record, nowMs),
      ]);
      return {
        body: {
          ...summary,
          hours: hourlyBuckets(hours.get(releaseRefId(record)) ?? new Map()),
          newIssues: issues.newIssues.map(issueView),
          regressedIssues: issues.regressedIssues.map(issueView),
        },
        audit: { hours: hours.get(releaseRefId(record))?.size ?? 0 },
      };
    },
  }),
};

/** A release as `releases.list` and `releases.show` answer it. */
export type ReleaseSummary = ReturnType<typeof releaseSummary>;

export interface ReleaseListAnswer {
  releases: ReleaseSummary[];
  cursor?: string;
}

export type ReleaseShowAnswer = ReleaseSummary & {
  /** Hourly buckets, oldest first: the release's first 7 days and the last 24 hours. */
  hours: ReturnType<typeof hourlyBuckets>;
  newIssues: ReturnType<typeof issueView>[];
  regressedIssues: ReturnType<typeof issueView>[];
};
