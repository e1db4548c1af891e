import type { MiddlewareObj } from '@middy/core';
import { logger as containerLogger, type JsonLogger } from '../../observability/logger';
import { RequestMetrics } from '../../observability/metrics';
import type { RequestState } from '../request-state';
import type { ApiContext, ApiEvent, ApiResult } from '../types';
import { requestLogFields } from './request-log';
import { noCounts, requestOutcome, type CountsOf } from './request-metrics';

/** Once per container: options from the environment. */
const containerMetrics = new RequestMetrics();

export interface RequestRecordOptions {
  /** What the API counts beyond the totals (default: nothing). */
  countsOf?: CountsOf;
  logger?: JsonLogger;
  metrics?: RequestMetrics;
}

/**
 * The record every request leaves, errors included: one JSON log line
 * (request-log.ts; INFO, or ERROR for a 5xx) and one CloudWatch embedded
 * metric format document (request-metrics.ts), both on stdout, in one write
 * (JsonLogger.emit). A 5xx's line goes to stderr, its metrics still to stdout.
 */
export function requestRecord(
  routeOf: (event: ApiEvent, state: RequestState) => string,
  options: RequestRecordOptions = {},
): MiddlewareObj<ApiEvent, ApiResult, Error, ApiContext, { startedAt?: number }> {
  const { countsOf = noCounts, logger = containerLogger, metrics = containerMetrics } = options;
  const done = ({
    event,
    context,
    response,
    internal,
  }: {
    event: ApiEvent;
    context: ApiContext;
    response: ApiResult | null;
    internal: { startedAt?: number };
  }) => {
    const { state } = context;
    const status = response?.statusCode ?? 500;
    const route = routeOf(event, state);
    const level = status >= 500 ? 'ERROR' : 'INFO';
    const line = logger.enabled(level)
      ? logger.format(level, 'request', requestLogFields({ event, context, state, route, status, startedAt: internal.startedAt }))
      : '';
    logger.emit(level, line, metrics.enabled ? metrics.line(requestOutcome({ event, state, route, status }, countsOf)) : '');
  };
  return {
    name: 'requestRecord',
    before: ({ internal }) => {
      internal.startedAt = performance.now();
    },
    after: done,
    onError: done,
  };
}
