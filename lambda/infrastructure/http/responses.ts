import { createError, type HttpError } from '@middy/util';
import { redactKeys } from '../../kernel/api-key';
import type { ErrorAnswer } from './answers';
import type { ApiResult } from './types';

export const JSON_CONTENT_TYPE = 'application/json';

/** A JSON response. */
export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return { statusCode, headers: { 'Content-Type': JSON_CONTENT_TYPE, ...headers }, body: JSON.stringify(body) };
}

/**
 * An error the caller can act on. @middy/http-error-handler turns it into the
 * response: its message is the JSON body `{"error": …}`, so the handler sends
 * it as application/json. Key-shaped text a message quotes from the request
 * (a path, an id, a parse error) is masked: no answer ever carries a key.
 */
export function apiError(statusCode: number, message: string, headers: Record<string, string> = {}): HttpError {
  const error = createError(statusCode, JSON.stringify({ error: redactKeys(message) } satisfies ErrorAnswer), { expose: true });
  return Object.assign(error, { headers });
}
