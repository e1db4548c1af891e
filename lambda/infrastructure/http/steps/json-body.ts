import { isUtf8 } from 'node:buffer';
import { clip } from '../../../kernel/clip';
import type { BodyReader } from '../pipeline';
import { apiError } from '../responses';
import type { ApiEvent } from '../types';

/** A base64 body as text; JSON is UTF-8, so other bytes are refused rather than stored as U+FFFD. */
function decodeBase64Body(body: string): string {
  const bytes = Buffer.from(body, 'base64');
  if (!isUtf8(bytes)) throw apiError(400, 'Request body is not valid UTF-8: send JSON text in UTF-8, uncompressed.');
  return bytes.toString('utf8');
}

/**
 * The body parsed as JSON; malformed, not UTF-8 or empty gives 400 (docs/contacts-api.md#errors;
 * docs/ingest-api.md#errors too). `example` is the route's own body, which the
 * message for an empty one shows. The Content-Type is not enforced: a JSON body is read as JSON.
 * Our own rather than @middy/http-json-body-parser, which answers 415/422
 * where the spec wants 400.
 */
export function parseJsonBody(event: Pick<ApiEvent, 'body' | 'isBase64Encoded'>, example: string): unknown {
  const text = event.isBase64Encoded && event.body ? decodeBase64Body(event.body) : event.body;
  if (!text || text.trim() === '') {
    throw apiError(400, `Request body is empty: send a JSON object, like ${example}.`);
  }
  try {
    // A UTF-8 byte order mark is not JSON, but it is harmless: skip it.
    return JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch (error) {
    // V8 quotes part of the input in its message: keep it short.
    const reason = error instanceof SyntaxError ? `: ${clip(error.message, 160)}` : '';
    throw apiError(400, `Request body is not valid JSON${reason}.`);
  }
}

/**
 * A route's body as JSON, not validated here (the ingest API's events are
 * read one by one by their operation); the OpenAPI document takes its
 * schema from openapi/ingest-bodies.ts.
 */
export function jsonBody(example: string): BodyReader<unknown> {
  return { read: (event) => parseJsonBody(event, example) };
}
