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
    const headers: Record<string, string | number | boolean> = {};
    for (const [name, value] of Object.entries(response.headers ?? {})) {
      if (!name.toLowerCase().startsWith('access-control-')) headers[name] = value;
    }
    headers['Cache-Control'] = 'no-store';
    headers['X-Content-Type-Options'] = 'nosniff';
    response.headers = headers;
  };
  return { name: 'responseHeaders', after: apply, onError: apply };
}
