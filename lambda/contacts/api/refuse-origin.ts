import type { MiddlewareObj } from '@middy/core';
import { apiError } from '../../infrastructure/http/responses';
import type { ApiEvent } from '../../infrastructure/http/types';

/**
 * Refuses any request carrying an `Origin` header with 403, whatever its key
 * (docs/contacts-api.md#not-in-this-api). Browsers send Origin on cross-site calls; this API is
 * server-to-server only and sends no CORS headers. Runs first, so no key is
 * checked and nothing is counted against a rate limit.
 *
 * Expects lowercased header names (@middy/http-header-normalizer).
 */
export function refuseOrigin(): MiddlewareObj<ApiEvent> {
  return {
    name: 'refuseOrigin',
    before: ({ event }) => {
      if (event.headers && Object.hasOwn(event.headers, 'origin')) {
        throw apiError(403, 'Requests with an Origin header are refused: this is a server-to-server API. Call it from your backend, not from a browser.');
      }
    },
  };
}
