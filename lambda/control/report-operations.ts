import * as z from 'zod/mini';
import type { ReportKind } from '../ingest/issues/stored-event';
import { cursor, factoryId, limit, reportId } from './fields';
import { ControlError, operation, withCursor } from './operation';
import type { ControlDependencies } from './ports';
import { withDisplayFrames } from './event-frames';
import { withCountingIssue } from './issue-ids';

/** Reports per page: at most REPORTS_MAX (BatchGetItem reads 100 at a time). */
export const REPORTS_DEFAULT = 50;
export const REPORTS_MAX = 100;

function reportFeed(deps: ControlDependencies) {
  if (!deps.reports) throw new ControlError(500, 'report operations are not configured on this control room (no reports table)');
  return deps.reports;
}

/** A page of one feed, newest first: `{<key>: [...], cursor?}`. */
function feed(
  kind: ReportKind,
  key: string,
  request: { factoryId: string; limit: number; cursor?: string; type?: string },
  deps: ControlDependencies,
  now: Date,
) {
  return reportFeed(deps)
    .page(request.factoryId, kind, {
      cursor: request.cursor,
      limit: request.limit,
      nowMs: now.getTime(),
      ...(request.type === undefined ? {} : { type: request.type }),
    })
    .then((page) => ({
      body: { factoryId: request.factoryId, [key]: page.items, ...withCursor(page.next) },
      audit: { count: page.items.length, more: page.next !== undefined },
    }));
}

/** One stored report, or 404. */
async function one(kind: ReportKind, what: string, factoryId: string, id: string, deps: ControlDependencies) {
  const report = await reportFeed(deps).get(factoryId, kind, id);
  if (!report) throw new ControlError(404, `no ${what} ${id} in ${factoryId}`);
  return report;
}

/** What the ingest API stored, read back (docs/control-room-app.md#keys-and-reports-are-operations-too). Counts in the audit, never a report's text. */
export const REPORT_OPERATIONS = {
  'reports.events': operation({
    request: z.strictObject({
      factoryId,
      // Any name: a type no event has lists nothing (the ingest API's types: lambda/ingest/payloads.ts, not imported here).
      type: z.optional(
        z
          .string({ error: 'type must be an event type like "error", "bug_report" or "message"' })
          .check(z.regex(/^[a-z_]{1,32}$/, { error: 'type must be an event type like "error", "bug_report" or "message"' })),
      ),
      limit: limit(REPORTS_MAX),
      cursor,
    }),
    defaults: (request) => ({ ...request, limit: request.limit ?? REPORTS_DEFAULT }),
    run: async (request, { deps, now }) => {
      const answer = await feed('events', 'events', request, deps, now);
      // Each event's issueId: the issue that counts it (./issue-ids.ts).
      const listed = (answer.body as { events?: StoredReport[] }).events ?? [];
      const events = await withCountingIssue(deps.issues, request.factoryId, listed);
      return { ...answer, body: { ...answer.body, events } };
    },
  }),

  'reports.feature-requests': operation({
    request: z.strictObject({ factoryId, limit: limit(REPORTS_MAX), cursor }),
    defaults: (request) => ({ ...request, limit: request.limit ?? REPORTS_DEFAULT }),
    run: (request, { deps, now }) => feed('feature-requests', 'featureRequests', request, deps, now),
  }),

  'reports.event': operation({
    request: z.strictObject({ factoryId, eventId: reportId('eventId') }),
    run: async ({ factoryId, eventId }, { deps }) => {
      const [event] = await withCountingIssue(deps.issues, factoryId, [await one('events', 'event', factoryId, eventId, deps)]);
      return { body: { event: await withDisplayFrames(deps, event as StoredReport) }, audit: { eventId } };
    },
  }),

  'reports.feature-request': operation({
    request: z.strictObject({ factoryId, requestId: reportId('requestId') }),
    run: async ({ factoryId, requestId }, { deps }) => ({
      body: { featureRequest: await one('feature-requests', 'feature request', factoryId, requestId, deps) },
      audit: { requestId },
    }),
  }),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
/** An event or a feature request as stored: every attribute the ingest API wrote (lambda/ingest/issues/stored-event.ts), as the report feed reads it. */
export type StoredReport = Record<string, unknown>;
export interface EventListAnswer {
  factoryId: string;
  events: StoredReport[];
  cursor?: string;
}
export interface FeatureRequestListAnswer {
  factoryId: string;
  featureRequests: StoredReport[];
  cursor?: string;
}
export interface EventAnswer {
  event: StoredReport;
}
export interface FeatureRequestAnswer {
  featureRequest: StoredReport;
}
