import { INGEST_SERVICE_NAME } from '../../infrastructure/observability/names';
import { INGEST_BODY_LIMIT_BYTES } from '../limits';
import { readFeatureRequest } from '../payloads';
import type { AddressLimitName, AddressLimiter, FeedbackStore, FrameResolver, IngestKeyAuthorizer, IssueLimiter, ReportStore, VisitorSalts } from '../ports';
import { bodyLimit } from '../../infrastructure/http/steps/body-limit';
import { jsonBody } from '../../infrastructure/http/steps/json-body';
import { readBody } from '../../infrastructure/http/steps/read-body';
import { notedCounts } from '../../infrastructure/http/middleware/request-metrics';
import { receiveEventsOperation } from './receive-events';
import { receiveSessionOperation, sessionBody, sessionReportOf } from './receive-sessions';
import { SESSION_BODY_LIMIT_BYTES } from '../sessions/own-session';
import { submitFeatureRequestOperation } from './submit-feature-request';
import { createHandler, NO_BODY, route, type ApiHandler, type ApiSpec, type BodyCheck, type Check } from '../../infrastructure/http/pipeline';
import { API_PREFIXES } from '../../infrastructure/http/prefixes';
import { requireContentType } from './content-type';
import { corsHeaders } from './cors-headers';
import { ingestAccess } from './ingest-access';
import { newIngestSlot, type IngestSlot } from './ingest-slot';
import { preflightOperation } from './preflight';
import { receiveSentryOperation, sentryProjectMatches } from './receive-sentry';
import { sentryAnswers } from './sentry-answers';
import { SENTRY_KEY_REJECTIONS, sentryBody, sentryCredential } from './sentry-body';
import type { SentryRequest } from '../sentry/sentry-request';

/** What the ingest API needs: the key calls, the per-address and per-issue limiters, the reports, retention, and a clock the tests can move. */
export interface IngestDependencies {
  keys: IngestKeyAuthorizer;
  limiter: AddressLimiter;
  issueLimits: IssueLimiter;
  reports: ReportStore;
  /** The day's salt of visitor hashes (events then carry their visitor's hash: docs/report-issues.md#visitors-affected). */
  visitorSalts?: VisitorSalts;
  /** Days a report is kept before DynamoDB's TTL removes it. */
  retentionDays: number;
  now?: () => number;
  /** Resolves events' frames through source maps (docs/source-maps.md); without, frames stay as sent. */
  frames?: FrameResolver;
  /** Where user feedback goes (docs/feedback.md); without, feedback items are answered and dropped, as before. */
  feedback?: FeedbackStore;
}

/** The media types an ingest body may be sent as: JSON, or text (what navigator.sendBeacon sends for a string). */
const INGEST_CONTENT_TYPES = ['application/json', 'text/plain'];

/** Every POST's checks before its JSON, in the precedence below. */
const ingestChecks = (deps: IngestDependencies, limits: readonly AddressLimitName[]): Check<IngestSlot>[] => [
  requireContentType(INGEST_CONTENT_TYPES),
  bodyLimit(INGEST_BODY_LIMIT_BYTES),
  ingestAccess(deps, limits),
];

/**
 * A Sentry route's checks (docs/sentry-sdks.md), once its body is read (the
 * route is body-first: 413, 415, 400 come before the key, which may be in
 * the envelope): the key from the Sentry places, the origin (none only for a
 * servers key) and the per-address limits, as ingestAccess does them, then
 * the DSN's project.
 */
const sentryChecks = (deps: IngestDependencies): BodyCheck<IngestSlot, SentryRequest>[] => [
  ingestAccess(deps, ['requests'], {
    credential: sentryCredential,
    rejections: SENTRY_KEY_REJECTIONS,
    sessions: (body) => body?.sessions,
    keyLimitLater: (body) => (body?.events.length ?? 0) > 0,
  }),
  sentryProjectMatches(),
];

const SENTRY_ROUTES = ['envelope', 'store'] as const;

/**
 * The browser-side bug-reporting API (docs/ingest-api.md): publishable keys
 * bound to origins, CORS on every answer. No guard runs before routing, so a
 * preflight answers without a key lookup.
 *
 * Error precedence: when a request is wrong in several ways, the first of
 * these answers it.
 * 1. 404: no such path (the router)
 * 2. 204: OPTIONS, the CORS preflight: answered for any origin, without a key
 * 3. 405: the path under another method (the router)
 * 4. 415: a Content-Type other than JSON or text, or a charset other than UTF-8
 * 5. 413: the body over the ingest limit
 * 6. 401: a missing, malformed, unknown, revoked or secret key (ingestAccess)
 * 7. 403: an Origin the key was not issued for (ingestAccess)
 * 8. 429: the per-address limits (ingestAccess)
 * 9. 400: the body not JSON
 * 10. 422: the content invalid (every event, or the feature request)
 * 11. 429: an issue's limit (when every valid event is held back by one), then the key's per-minute limit
 * 12. 503: storage unavailable; 429 when it refuses for load (a partition's ceiling)
 * 13. 429: events held back by an issue's limit, after the others were stored
 */
export const INGEST_API: ApiSpec<IngestDependencies, IngestSlot> = {
  name: 'ingest',
  service: INGEST_SERVICE_NAME,
  prefix: API_PREFIXES.ingest,
  home: 'The ingest API takes POST /ingest/v1/events, POST /ingest/v1/sessions and POST /ingest/v1/feature-requests.',
  slot: newIngestSlot,
  guards: () => [],
  // In this order, so that the Sentry headers are added after (outside) the CORS ones.
  answers: () => [sentryAnswers(), corsHeaders()],
  countsOf: notedCounts,
  unavailable: 'The report store is temporarily unavailable: retry the same request (retrying is safe: each event and feature request is stored once).',
  routes: [
    route({
      method: 'POST',
      path: '/ingest/v1/events',
      checks: (deps) => ingestChecks(deps, ['requests']),
      // Each event is read on its own by the operation (a bad one is listed, the others stored).
      body: jsonBody('{"events": [{"eventId": "<uuid>", "message": "…"}]}'),
      operation: (deps) => receiveEventsOperation(deps),
    }),
    route({
      method: 'POST',
      path: '/ingest/v1/sessions',
      // The session rides the per-address limiter's write, so the access check reads the body (once: receive-sessions.ts).
      checks: (deps) => [
        requireContentType(INGEST_CONTENT_TYPES),
        bodyLimit(SESSION_BODY_LIMIT_BYTES),
        ingestAccess(deps, ['requests'], { sessions: (_body, event, visitor) => sessionReportOf(event, visitor), visitorSessions: true }),
      ],
      body: sessionBody,
      operation: () => receiveSessionOperation(),
    }),
    route({
      method: 'POST',
      path: '/ingest/v1/feature-requests',
      checks: (deps) => ingestChecks(deps, ['requests', 'featureRequests']),
      body: readBody(readFeatureRequest, '{"requestId": "<uuid>", "title": "Dark mode"}'),
      operation: (deps) => submitFeatureRequestOperation(deps),
    }),
    route({ method: 'OPTIONS', path: '/ingest/v1/events', body: NO_BODY, operation: () => preflightOperation() }),
    route({ method: 'OPTIONS', path: '/ingest/v1/feature-requests', body: NO_BODY, operation: () => preflightOperation() }),
    route({ method: 'OPTIONS', path: '/ingest/v1/sessions', body: NO_BODY, operation: () => preflightOperation() }),
    // The Sentry protocol: the SDKs post to <DSN path>/api/<project id>/envelope/ (and, Python 1.x, /store/).
    ...SENTRY_ROUTES.flatMap((kind) => [
      route({
        method: 'POST',
        path: `${API_PREFIXES.sentry}api/{projectId}/${kind}`,
        bodyFirst: true,
        body: sentryBody(kind),
        checks: (deps: IngestDependencies) => sentryChecks(deps),
        operation: (deps: IngestDependencies) => receiveSentryOperation(deps),
      }),
      route({ method: 'OPTIONS', path: `${API_PREFIXES.sentry}api/{projectId}/${kind}`, body: NO_BODY, operation: () => preflightOperation() }),
    ]),
  ],
};

/** The ingest API's handler on the dependencies given: the Lambda entry's (ingest-entry.ts), the tests' and the tools'. */
export function createIngestHandler(deps: IngestDependencies): ApiHandler {
  return createHandler(INGEST_API, deps);
}
