import type { MiddlewareObj } from '@middy/core';
import type { ApiResult } from '../../infrastructure/http/types';

/**
 * The contacts API's rule (docs/contacts-api.md#not-in-this-api): never an `Access-Control-*`
 * header, on any answer, whatever a route or library may have added. Runs
 * outside the error handler, so it sees errors too.
 */
export function noCorsHeaders(): MiddlewareObj<unknown, ApiResult> {
  const apply = ({ response }: { response: ApiResult | null }) => {
    if (!response?.headers) return;
    // In place: the answer's headers are this request's own object.
    for (const name of Object.keys(response.headers)) {
      if (name.toLowerCase().startsWith('access-control-')) delete response.headers[name];
    }
  };
  return { name: 'noCorsHeaders', after: apply, onError: apply };
}
