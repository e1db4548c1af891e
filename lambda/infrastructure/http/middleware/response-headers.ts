import type { MiddlewareObj } from '@middy/core';
import type { ApiResult } from '../types';

/**
 * Headers every response of every API carries, errors included: no caching
 * of tenant data, no content sniffing. Whether an answer may carry CORS
 * headers is each API's own rule (contacts/no-cors-headers.ts, ingest/cors-headers.ts).
 */
export function responseHeaders(): MiddlewareObj<unknown, ApiResult> {
  const apply = ({ response }: { response: ApiResult | null }) => {
    if (!response) return;
    // In place: the answer's headers are this request's own object.
    const headers = (response.headers ??= {});
    headers['Cache-Control'] = 'no-store';
    headers['X-Content-Type-Options'] = 'nosniff';
  };
  return { name: 'responseHeaders', after: apply, onError: apply };
}
