import type { MiddlewareObj } from '@middy/core';
import { redactKeys } from '../../../kernel/api-key';
import { StorageThrottledError, StorageUnavailableError } from '../../../kernel/errors';
import { logger as containerLogger, type JsonLogger } from '../../observability/logger';
import { apiError } from '../responses';
import type { ApiContext } from '../types';

/** `StorageUnavailableError(ThrottlingException)`, `TypeError`: what an operator searches the logs for. */
function failureClass(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  return cause instanceof Error ? `${error.name}(${cause.name})` : error.name;
}

const isHttpError = (error: unknown): boolean => error instanceof Error && typeof (error as { statusCode?: unknown }).statusCode === 'number';

/**
 * Failures of ours. Storage refusing for load (a partition past its write
 * ceiling: docs/capacity.md) becomes 429 with `Retry-After`, never a 5xx.
 * Storage that could not answer in time (or middy's early
 * timeout before the Lambda's own) becomes 503 with `Retry-After` and the
 * API's `unavailable` message: every write is idempotent, so the same request
 * may simply be sent again. Anything else
 * unexpected is logged with its stack and left to become a 500.
 * Must run before @middy/http-error-handler, which drops the original error.
 */
export function serverErrors(unavailable: string, logger: JsonLogger = containerLogger): MiddlewareObj<unknown, unknown, Error, ApiContext> {
  return {
    name: 'serverErrors',
    onError: (request) => {
      const { error, context } = request;
      if (!error || isHttpError(error)) return;
      const requestId = context.awsRequestId;
      const failure = (context.state.failure = failureClass(error));
      if (error instanceof StorageThrottledError) {
        logger.warn('storage throttled', { lambdaRequestId: requestId, errorClass: failure, error: redactKeys(error.message) });
        // 1 or 2 s: callers refused together do not all come back in the same second.
        const wait = 1 + Math.round(Math.random());
        request.error = apiError(429, `Too many writes to the same data at once: retry after ${wait} s (retrying is safe).`, { 'Retry-After': String(wait) });
        return;
      }
      if (error instanceof StorageUnavailableError || error.name === 'TimeoutError') {
        logger.warn('storage unavailable', { lambdaRequestId: requestId, errorClass: failure, error: redactKeys(error.message) });
        request.error = apiError(503, unavailable, { 'Retry-After': '1' });
        return;
      }
      logger.error('unexpected error', {
        lambdaRequestId: requestId,
        errorClass: failure,
        error: redactKeys(error.message),
        stack: error.stack && redactKeys(error.stack),
      });
    },
  };
}
