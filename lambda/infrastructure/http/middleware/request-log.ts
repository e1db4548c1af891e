import { requestIdOf } from '../request-id';
import type { RequestState } from '../request-state';
import type { ApiContext, ApiEvent } from '../types';

let coldStart = true;

/**
 * The fields of a request's log line (written by request-record.ts): request
 * id (the one in the `X-Request-Id` response header), route, status,
 * latency, DynamoDB calls and their time, the caller's factory and key id,
 * for a 5xx the class of the error behind it, and what the API itself adds
 * (the request state's `logFields`). Never the raw path or query string (they can hold
 * an email or a key), headers or the body.
 */
export function requestLogFields(request: {
  event: ApiEvent;
  context: Pick<ApiContext, 'awsRequestId'>;
  state: RequestState;
  route: string;
  status: number;
  startedAt: number | undefined;
}): Record<string, unknown> {
  const { event, context, state, status, startedAt } = request;
  const dynamo = state.calls;
  const fields: Record<string, unknown> = {
    requestId: requestIdOf(event, context),
    lambdaRequestId: context.awsRequestId,
    route: request.route,
    status,
    latencyMs: startedAt === undefined ? undefined : Math.round(performance.now() - startedAt),
    dynamoCalls: dynamo?.calls,
    dynamoMs: dynamo && Math.round(dynamo.latenciesMs.reduce((sum, ms) => sum + ms, 0)),
    factoryId: state.caller?.factoryId,
    keyId: state.caller?.keyId,
    errorClass: status >= 500 ? (state.failure ?? 'unknown') : undefined,
  };
  // Assigned, not spread: the line is built for every request (see metrics.ts).
  const extra = state.logFields;
  if (extra) for (const name in extra) fields[name] = extra[name];
  fields.coldStart = coldStart;
  coldStart = false;
  return fields;
}
