import type { MiddlewareObj } from '@middy/core';
import { REQUEST_ID_HEADER } from '../../infrastructure/observability/names';
import type { ApiEvent, ApiResult } from '../../infrastructure/http/types';

type Headers = NonNullable<ApiResult['headers']>;

/** The headers without those whose lowercased name passes `drop`. */
function without(headers: Headers | undefined, drop: (name: string) => boolean): Headers {
  const kept: Headers = {};
  for (const [name, value] of Object.entries(headers ?? {})) if (!drop(name.toLowerCase())) kept[name] = value;
  return kept;
}

/**
 * An `Origin` value worth echoing: a serialized origin (`scheme://host[:port]`)
 * or `null`. Anything else (a list, a path, garbage) gets no CORS header.
 */
const ECHOABLE = /^(null|[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s/?#,"'<>\\]{1,253})$/;

/**
 * The ingest API's CORS (docs/ingest-api.md#cors): every answer to a
 * request with an Origin, errors included, echoes that origin in
 * `Access-Control-Allow-Origin` (never `*`, never credentials) with
 * `Vary: Origin`, and exposes `Retry-After` and `X-Request-Id`, so the page
 * can read the status, the error and when to retry. Answers that carry data
 * (202, 201, 200) only ever go to the key's own websites: the origin check
 * refuses the others with a 403 first. Error answers say only what to fix,
 * so any page may read them: that is how a site's developer sees a refused
 * origin (403), a bad key (401) or a wrong content type (415) in the
 * console. A preflight (OPTIONS) gets the echo; its own answer adds the
 * allowed methods and headers. Runs outside the error handler, so it sees
 * errors too.
 */
export function corsHeaders(): MiddlewareObj<ApiEvent, ApiResult> {
  const apply = ({ event, response }: { event: ApiEvent; response: ApiResult | null }) => {
    if (!response) return;
    const headers = without(response.headers, (name) =>
      ['access-control-allow-origin', 'access-control-allow-credentials', 'access-control-expose-headers'].includes(name),
    );
    headers.Vary = 'Origin';
    const origin = event.headers?.origin;
    if (origin !== undefined && ECHOABLE.test(origin)) {
      headers['Access-Control-Allow-Origin'] = origin;
      if (event.httpMethod !== 'OPTIONS') headers['Access-Control-Expose-Headers'] = `Retry-After, ${REQUEST_ID_HEADER}`;
    }
    response.headers = headers;
  };
  return { name: 'corsHeaders', after: apply, onError: apply };
}
