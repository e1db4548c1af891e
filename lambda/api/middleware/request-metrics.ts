import type { MiddlewareObj } from '@middy/core';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { currentDynamoStats } from '../../observability/dynamo-stats';
import { dimensionedMetrics, metrics } from '../../observability/metrics';
import { DIMENSIONS, METRIC } from '../../observability/names';
import type { ApiContext, ApiEvent, ApiResult } from '../types';

const flag = (condition: boolean) => (condition ? 1 : 0);

/**
 * Per request, in CloudWatch embedded metric format (no API call): the
 * totals the alarms divide (every request counts 0 or 1 in each, so an
 * Average is a rate), contacts created vs updated, DynamoDB calls and the
 * latency of each, and `Requests` by route and status class.
 */
export function requestMetrics(
  routeOf: (method: string, path: string) => string,
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext> {
  const done = ({ event, response }: { event: ApiEvent; response: ApiResult | null }) => {
    const status = response?.statusCode ?? 500;
    const route = routeOf(event.httpMethod, event.path);
    metrics.addMetric(METRIC.requestsTotal, MetricUnit.Count, 1);
    metrics.addMetric(METRIC.serverErrors, MetricUnit.Count, flag(status >= 500));
    metrics.addMetric(METRIC.storageUnavailable, MetricUnit.Count, flag(status === 503));
    metrics.addMetric(METRIC.rateLimited, MetricUnit.Count, flag(status === 429));
    if (event.httpMethod === 'POST' && (status === 200 || status === 201)) {
      metrics.addMetric(status === 201 ? METRIC.contactsCreated : METRIC.contactsUpdated, MetricUnit.Count, 1);
    }
    const dynamo = currentDynamoStats();
    if (dynamo) {
      metrics.addMetric(METRIC.dynamoCalls, MetricUnit.Count, dynamo.calls);
      for (const ms of dynamo.latenciesMs) metrics.addMetric(METRIC.dynamoLatency, MetricUnit.Milliseconds, ms);
    }
    metrics.publishStoredMetrics();
    // Adding and publishing without an await in between: requests served
    // concurrently (the local server) never mix their dimensions.
    dimensionedMetrics
      .addDimension(DIMENSIONS.route, route)
      .addDimension(DIMENSIONS.statusClass, `${Math.floor(status / 100)}xx`)
      .addMetric(METRIC.requests, MetricUnit.Count, 1);
    dimensionedMetrics.publishStoredMetrics();
  };
  return { name: 'requestMetrics', after: done, onError: done };
}
