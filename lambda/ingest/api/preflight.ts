import type { Operation } from '../../infrastructure/http/pipeline';

/**
 * OPTIONS on an ingest endpoint: the CORS preflight (docs/ingest-api.md#cors,
 * the preflight). 204 for any origin, without a key lookup; the API's CORS
 * middleware echoes the origin. Browsers may cache the answer for two hours.
 */
export function preflightOperation(): Operation {
  return async () => ({
    statusCode: 204,
    headers: {
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'authorization, content-type',
      'Access-Control-Max-Age': '7200',
    },
    body: '',
  });
}
