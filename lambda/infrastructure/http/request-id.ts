import type { Context } from 'aws-lambda';
import type { ApiEvent } from './types';

/**
 * The id a caller can quote to us: API Gateway's request id (also in its
 * access log), or the Lambda request id when there is no gateway (locally
 * both are the same).
 */
export function requestIdOf(event: ApiEvent, context: Pick<Context, 'awsRequestId'>): string {
  return event.requestContext?.requestId || context.awsRequestId;
}
