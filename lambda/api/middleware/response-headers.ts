import type { MiddlewareObj } from '@middy/core';
import type { ApiResult } from '../types';

/**
 * Headers every response carries, errors included: no caching of tenant data,
 * no content sniffing, and never an `Access-Control-*` header (spec 1: no
 * CORS, ever), whatever a route or library may have added.
 */
export function responseHeaders(): MiddlewareObj<unknown, ApiResult> {
  const apply = ({ response }: { response: ApiResult | null }) => {
    if (!response) return;
    // In place: the answer's headers are this request's own object.
    const headers = (response.headers ??= {});
    for (const name of Object.keys(headers)) {
      if (name.toLowerCase().startsWith('access-control-')) delete headers[name];
    }
    headers['Cache-Control'] = 'no-store';
    headers['X-Content-Type-Options'] = 'nosniff';
  };
  return { name: 'responseHeaders', after: apply, onError: apply };
}
