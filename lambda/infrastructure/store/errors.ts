import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { StorageThrottledError, StorageUnavailableError } from '../../kernel/errors';
import { countCall, counting } from '../observability/call-log';

/** A conditional write whose condition did not hold. */
export function isConditionalCheckFailed(error: unknown): error is Error & { Item?: Record<string, unknown> } {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * The item a refused condition (ReturnValuesOnConditionCheckFailure:
 * ALL_OLD) or a cancelled transaction's reason returned, if any: raw
 * attribute values, even through the document client.
 */
export function itemOfFailure<T = Record<string, unknown>>(failure: { Item?: Record<string, unknown> }): T | undefined {
  return failure.Item ? (unmarshall(failure.Item as Record<string, AttributeValue>) as T) : undefined;
}

/** Client-side faults that are about load, not about the request: worth a retry. */
const RETRYABLE_CLIENT_FAULTS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'LimitExceededException',
  'TransactionConflictException',
  'TransactionInProgressException',
]);

/** The service refusing for load (a partition's ceiling, the account's): retried by the SDK, then ours to answer 429. */
const THROTTLING = new Set(['ProvisionedThroughputExceededException', 'ThrottlingException', 'RequestLimitExceeded']);

/** A refusal for load: a throttling error, or a cancelled transaction whose reasons say throttling. */
export function isThrottling(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (THROTTLING.has(error.name)) return true;
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
  return error.name === 'TransactionCanceledException' && Array.isArray(reasons) && reasons.some((reason) => reason.Code === 'ThrottlingError');
}

/**
 * True for failures of the store rather than of our request: timeouts,
 * network errors, throttling and service errors. A malformed request (a bug
 * of ours, like a ValidationException) is not, and must not be hidden as 503.
 */
export function isTransientStorageError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const fault = (error as { $fault?: string }).$fault;
  if (fault === 'client') return RETRYABLE_CLIENT_FAULTS.has(error.name);
  return true;
}

/**
 * Runs one DynamoDB call, counted in the request's call log when one is open (a
 * refused condition is a call too). Transient failures become
 * StorageUnavailableError (the API's 503); a failed condition and our own
 * bugs pass through as they are.
 */
export async function storageCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  const startedAt = counting() ? performance.now() : 0;
  try {
    return await call();
  } catch (error) {
    if (isConditionalCheckFailed(error) || !isTransientStorageError(error)) throw error;
    throw isThrottling(error) ? new StorageThrottledError(operation, error) : new StorageUnavailableError(operation, error);
  } finally {
    if (startedAt) countCall(performance.now() - startedAt);
  }
}
