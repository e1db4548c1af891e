import type { FeatureRequestInput } from '../../ingest/payloads';
import type { ReportStore } from '../../ingest/ports';
import { submitFeatureRequest } from '../../ingest/submit-feature-request';
import { METRIC } from '../../observability/names';
import { json } from '../responses';
import type { Operation } from '../pipeline';
import { note } from '../request-state';
import { receiptOf } from './ingest-receipt';

/**
 * POST /ingest/v1/feature-requests, once the route's steps have checked
 * everything up to the body's content: 201 with `created: true` for a new
 * requestId, 200 with the stored request and `created: false` for one the
 * factory already has.
 */
export function submitFeatureRequestOperation(deps: {
  reports: ReportStore;
  retentionDays: number;
  now?: () => number;
}): Operation<FeatureRequestInput> {
  const now = deps.now ?? Date.now;
  return async ({ body, state }) => {
    const result = await submitFeatureRequest(deps.reports, body, receiptOf(state, now(), deps.retentionDays), state.calls);
    note(state, { created: result.created }, result.created ? { [METRIC.featureRequestsCreated]: 1 } : undefined);
    return json(result.created ? 201 : 200, result);
  };
}
