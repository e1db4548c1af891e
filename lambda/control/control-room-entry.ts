import type { Context } from 'aws-lambda';
import { platformName } from '../contacts/enrichment/config';
import { loggerFromEnv } from '../infrastructure/observability/logger';
import { CONTROL_ROOM_SERVICE_NAME } from '../infrastructure/observability/names';
import { createDocumentClient, dynamoConfigFromEnv } from '../infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../infrastructure/store/schema';
import { mapReaderFromEnv } from '../infrastructure/store/source-maps/s3-map-reader';
import { controlDependencies } from './control-room-wiring';
import { isFunctionUrlEvent, readUrlCall, urlResult, type UrlResult } from './function-url';
import { handleControlRequest } from './handle-request';
import type { AuditFields } from './operation';

// Once per container.
const logger = loggerFromEnv(process.env, CONTROL_ROOM_SERVICE_NAME);
const tables = tableNamesFromEnv();
const defaultRateLimit = Number(process.env.DEFAULT_RATE_LIMIT);
const dependencies = controlDependencies(createDocumentClient(dynamoConfigFromEnv()), tables, platformName(), {
  // The key and report operations need their tables: the stack names them (lib/control-room.ts).
  ...(process.env.KEYS_TABLE_NAME ? { keys: tables.keys } : {}),
  ...(process.env.REPORTS_TABLE_NAME ? { reports: tables.reports } : {}),
  ...(process.env.ALERTS_TABLE_NAME ? { alerts: tables.alerts } : {}),
  ...(Number.isInteger(defaultRateLimit) && defaultRateLimit > 0 ? { defaultRateLimit } : {}),
  // The maps bucket, read-only, when the stack names it (lib/source-maps.ts, grantResolver).
  sourceMaps: mapReaderFromEnv(),
});

/** A bulk run takes no new page once less than this is left of the invocation's time. */
const BULK_RESERVE_MS = 60_000;

/** Why a direct Invoke is refused: it carries no caller identity for the audit line. */
export const DIRECT_INVOKE_REFUSED =
  'invoke the control room through its function URL (stack output ControlRoomUrl) with a SigV4-signed POST: a direct invocation does not tell the function who called, and every control-room operation is audited by caller';

/** The audit line: one per invocation, at INFO unless the function itself failed. Names and counts, never a field's value. */
function audit(status: number, fields: AuditFields & Record<string, unknown>): void {
  const line = { ...fields, status };
  if (status >= 500) logger.error('control room', line);
  else logger.info('control room', line);
}

/**
 * The internal control-room Lambda: the operations of the control room over
 * a factory's contacts, companies, enrichment, keys, reports and issues
 * (./operations.ts), behind its function URL with IAM auth. No API Gateway
 * route leads here; the operators' web app (local/console/control-room/, `npm run
 * control-room`) and the `control` command call it, or run the same
 * operations in their own process. A POST with `{"operation":
 * "contacts.list", "factoryId": …}` (the enrichment function's old shapes
 * still work: ./request.ts) answers 200 with one JSON object, or an error
 * status with `{"error": "…"}`.
 */
export async function handler(event: unknown, context: Context): Promise<UrlResult | { error: string }> {
  const startedAt = performance.now();
  const base = { lambdaRequestId: context.awsRequestId };
  const latency = () => Math.round(performance.now() - startedAt);

  if (!isFunctionUrlEvent(event)) {
    audit(403, { ...base, principal: 'unknown (direct invocation)', error: 'direct invocation refused', latencyMs: latency() });
    return { error: DIRECT_INVOKE_REFUSED };
  }
  const call = readUrlCall(event);
  if (!call.ok) {
    audit(call.result.statusCode, { ...base, principal: call.principal ?? 'unknown (unsigned)', error: call.reason, latencyMs: latency() });
    return call.result;
  }
  const answer = await handleControlRequest(
    dependencies,
    call.request,
    { principal: call.principal },
    {
      keepGoing: () => context.getRemainingTimeInMillis() > BULK_RESERVE_MS,
    },
  );
  const error = answer.status === 200 ? undefined : String(answer.body.error);
  audit(answer.status, { ...base, requestId: call.requestId, ...answer.audit, ...(error && answer.status < 500 ? { error } : {}), latencyMs: latency() });
  return urlResult(answer.status, answer.body);
}
