import type { MiddlewareObj } from '@middy/core';
import { SENTRY_PATH } from '../sentry/dsn';
import type { ApiEvent, ApiResult } from '../../infrastructure/http/types';

/**
 * What the Sentry SDKs read of an answer, added to every answer under the
 * Sentry path: a 429 carries `X-Sentry-Rate-Limits` (`<seconds>::key`: every
 * category, this key; https://develop.sentry.dev/sdk/rate-limiting/) beside
 * its Retry-After. Runs
 * outside the error handler, so it sees the refusals too.
 */
export function sentryAnswers(): MiddlewareObj<ApiEvent, ApiResult> {
  const apply = ({ event, response }: { event: ApiEvent; response: ApiResult | null }) => {
    if (!response || !event.path?.startsWith(`${SENTRY_PATH}/`)) return;
    const headers = { ...response.headers };
    const retryAfter = Object.entries(headers).find(([name]) => name.toLowerCase() === 'retry-after')?.[1];
    if (response.statusCode === 429) headers['X-Sentry-Rate-Limits'] = `${retryAfter ?? 60}::key`;
    response.headers = headers;
  };
  return { name: 'sentryAnswers', after: apply, onError: apply };
}
