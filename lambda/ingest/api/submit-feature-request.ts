import { LimitedError } from '../errors';
import type { FeatureRequestInput } from '../payloads';
import type { IngestKeyAuthorizer, ReportStore } from '../ports';
import { submitFeatureRequest } from '../submit-feature-request';
import { METRIC } from '../../infrastructure/observability/names';
import { apiError, json } from '../../infrastructure/http/responses';
import { CHALLENGE, REVOKED_INGEST_KEY } from './ingest-access';
import type { Operation } from '../../infrastructure/http/pipeline';
import { note } from '../../infrastructure/http/request-state';
import { receiptOf } from './ingest-receipt';
import type { IngestSlot } from './ingest-slot';
import { scrubbedLogField, scrubbedMetrics } from './scrubbed-metrics';
import { limited, senderOf } from './store-and-answer';

/**
 * POST /ingest/v1/feature-requests, once the route's steps have checked
 * everything up to the body's content: counted against the key's per-minute
 * limit (429), then 201 with `created: true` for a new requestId, 200 with
 * the stored request and `created: false` for one the factory already has.
 */
export function submitFeatureRequestOperation(deps: {
  reports: ReportStore;
  keys: Pick<IngestKeyAuthorizer, 'admitRequest'>;
  retentionDays: number;
  now?: () => number;
}): Operation<FeatureRequestInput, IngestSlot> {
  const now = deps.now ?? Date.now;
  return async ({ body, state }) => {
    const at = now();
    const { key, keyHash } = senderOf(state);
    const admission = await deps.keys.admitRequest(key, keyHash, at);
    if ('revoked' in admission) throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);
    if (!admission.admitted) {
      throw limited(
        state,
        new LimitedError(
          `Rate limit of ${key.rateLimit} requests per minute exceeded for this key: retry after ${admission.retryAfterSeconds} s.`,
          'key',
          admission.retryAfterSeconds,
        ),
      );
    }
    const result = await submitFeatureRequest(deps.reports, body, receiptOf(state, at, deps.retentionDays));
    // What the scrubber replaced counts when the request is stored now, as for events.
    const scrubbed = result.created ? body.scrubbed : undefined;
    note(
      state,
      { created: result.created, ...(scrubbed ? { scrubbed: scrubbedLogField(scrubbed) } : {}) },
      result.created ? { [METRIC.featureRequestsCreated]: 1, ...scrubbedMetrics(scrubbed ?? {}) } : undefined,
    );
    return json(result.created ? 201 : 200, result);
  };
}
