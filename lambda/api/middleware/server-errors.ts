import type { MiddlewareObj } from '@middy/core';
import { StorageUnavailableError } from '../../store/errors';
import { log } from '../log';
import { apiError } from '../responses';
import type { ApiContext } from '../types';

const isHttpError = (error: unknown): boolean =>
  error instanceof Error && typeof (error as { statusCode?: unknown }).statusCode === 'number';

/**
 * Failures of ours. Storage that could not answer in time (or middy's early
 * timeout before the Lambda's own) becomes 503 with `Retry-After`: every write
 * is idempotent, so the same request may simply be sent again. Anything else
 * unexpected is logged with its stack and left to become a 500.
 * Must run before @middy/http-error-handler, which drops the original error.
 */
export function serverErrors(): MiddlewareObj<unknown, unknown, Error, ApiContext> {
  return {
    name: 'serverErrors',
    onError: (request) => {
      const { error, context } = request;
      if (!error || isHttpError(error)) return;
      const requestId = context.awsRequestId;
      if (error instanceof StorageUnavailableError || error.name === 'TimeoutError') {
        log('warn', 'storage unavailable', { requestId, error: error.message });
        request.error = apiError(
          503,
          'The contacts store is temporarily unavailable: retry the same request (retrying is safe and cannot create a duplicate).',
          { 'Retry-After': '1' },
        );
        return;
      }
      log('error', 'unexpected error', { requestId, error: error.message, stack: error.stack });
    },
  };
}
