import { InvalidCursorError, StorageUnavailableError } from '../kernel/errors';
import { ControlError, type AuditFields, type ReadRequest } from './operation';
import type { Caller, ControlDependencies } from './ports';
import { readControlRequest } from './request';

export interface RunOptions {
  /** Bulk runs: asked before each new page; false ends the call with a cursor. */
  keepGoing?: () => boolean;
}

/** Every answer: an HTTP status and a JSON object, `{"error": "…"}` when it is not 200. */
export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
  audit: AuditFields;
}

const failure = (status: number, error: string, audit: AuditFields): ControlAnswer => ({ status, body: { error }, audit });

/** What the caller named, for the audit line of a refused request, when it is a plausible name (never the rest of the body). */
function namedOperation(event: unknown): AuditFields {
  const named = (event as { operation?: unknown } | null)?.operation;
  return typeof named === 'string' && /^[a-z.-]{1,40}$/.test(named) ? { operation: named } : {};
}

/**
 * One control-room call, start to end: reads the request, runs it for the
 * caller, and answers with a status and one JSON object. Never throws: a
 * ControlError answers its own status (400, 404, 500) in its words, a bad
 * cursor 400, storage trouble 503 (retrying is safe), anything else 500
 * (its class in the audit fields).
 */
export async function handleControlRequest(deps: ControlDependencies, event: unknown, caller: Caller, options: RunOptions = {}): Promise<ControlAnswer> {
  let read: ReadRequest;
  try {
    read = readControlRequest(event);
  } catch (error) {
    if (!(error instanceof ControlError)) throw error;
    return failure(error.status, error.message, { ...namedOperation(event), principal: caller.principal });
  }
  const { request } = read;
  // The ids its operation's fields say the audit line names (fields.ts, FieldMeta.audited).
  const audit: AuditFields = { operation: request.operation, factoryId: request.factoryId, ...read.audit, principal: caller.principal };
  try {
    const done = await read.run({ deps, caller, now: deps.now?.() ?? new Date(), keepGoing: options.keepGoing ?? (() => true) });
    return { status: 200, body: done.body, audit: { ...audit, ...done.audit } };
  } catch (error) {
    if (error instanceof ControlError) {
      return failure(error.status, error.message, error.status >= 500 ? { ...audit, errorClass: error.name, error: error.message } : audit);
    }
    if (error instanceof InvalidCursorError) return failure(400, error.message, audit);
    if (error instanceof StorageUnavailableError) {
      return failure(503, 'storage unavailable: retrying the same request is safe', { ...audit, errorClass: error.name, error: error.message });
    }
    const name = error instanceof Error ? error.name : typeof error;
    return failure(500, 'internal error: see the function log', { ...audit, errorClass: name, error: error instanceof Error ? error.message : String(error) });
  }
}
