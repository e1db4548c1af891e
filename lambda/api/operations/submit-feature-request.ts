import type { FeatureRequestInput } from '../../ingest/payloads';
import type { ReportStore } from '../../ingest/ports';
import { submitFeatureRequest } from '../../ingest/submit-feature-request';
import { METRIC } from '../../observability/names';
import { json } from '../responses';
import type { EventWithBody, RouteHandler } from '../types';
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
}): RouteHandler<EventWithBody<FeatureRequestInput>> {
  const now = deps.now ?? Date.now;
  return async (event, context) => {
    const result = await submitFeatureRequest(deps.reports, event.body, receiptOf(context, now(), deps.retentionDays), context.calls);
    if (result.created) context.counts = { ...context.counts, [METRIC.featureRequestsCreated]: 1 };
    context.logFields = { ...context.logFields, created: result.created };
    return json(result.created ? 201 : 200, result);
  };
}
