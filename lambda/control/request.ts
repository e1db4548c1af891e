import { ENRICHMENT_OPERATIONS } from './enrichment-operations';
import { ControlError, type ReadRequest } from './operation';
import { CONTROL_OPERATIONS, OPERATION_NAMES } from './operations';

const LEGACY_HINT = 'a refresh takes {factoryId, contactId, passId?}, a bulk run {factoryId, cursor?}';

/**
 * Reads what the control room was sent: `{"operation": "contacts.list", …}`
 * and the others of OPERATION_NAMES, or one of the enrichment function's
 * shapes from before the control room named its operations:
 * `{factoryId, contactId, passId?}` (refresh) and `{factoryId, cursor?}`
 * (bulk; strict: a misspelt key is an error, never a bulk run). Every
 * problem is a ControlError (400) saying what to fix.
 */
export function readControlRequest(event: unknown): ReadRequest {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new ControlError(400, `expected a JSON object: {"operation": one of ${OPERATION_NAMES.join(', ')}, "factoryId", …}`);
  }
  const { operation: name, ...fields } = event as Record<string, unknown>;
  if (!('operation' in event)) {
    const legacy = 'contactId' in fields ? 'enrichment.refresh' : 'enrichment.bulk';
    return ENRICHMENT_OPERATIONS[legacy].read(legacy, fields, LEGACY_HINT);
  }
  const operation = typeof name === 'string' ? CONTROL_OPERATIONS.get(name) : undefined;
  if (typeof name !== 'string' || operation === undefined) throw new ControlError(400, `operation must be one of ${OPERATION_NAMES.join(', ')}`);
  return operation.read(name, fields);
}

/** The request as its operation takes it (checked, defaults filled in): what the `control` command checks before it sends one. */
export function parseControlRequest(event: unknown): ReadRequest['request'] {
  return readControlRequest(event).request;
}
