import type { MiddlewareObj } from '@middy/core';
import { isUtf8 } from 'node:buffer';
import { clip } from '../../domain/clip';
import { apiError } from '../responses';
import type { ApiEvent } from '../types';

/** A base64 body as text; JSON is UTF-8, so other bytes are refused rather than stored as U+FFFD. */
function decodeBase64Body(body: string): string {
  const bytes = Buffer.from(body, 'base64');
  if (!isUtf8(bytes)) throw apiError(400, 'Request body is not valid UTF-8: send JSON text in UTF-8, uncompressed.');
  return bytes.toString('utf8');
}

/**
 * Parses the body as JSON into `event.body`; malformed, not UTF-8 or empty
 * gives 400 (docs/contacts-api.md#errors; docs/ingest-api.md#errors too). `example` is the body the
 * message for an empty one shows. The Content-Type is not enforced: a JSON body is read as JSON.
 * Our own rather than @middy/http-json-body-parser, which answers 415/422
 * where the spec wants 400.
 */
export function jsonBody(example = '{"email": "ada@example.com"}'): MiddlewareObj<ApiEvent> {
  return {
    name: 'jsonBody',
    before: ({ event }) => {
      const text = event.isBase64Encoded && event.body ? decodeBase64Body(event.body) : event.body;
      if (!text || text.trim() === '') {
        throw apiError(400, `Request body is empty: send a JSON object, like ${example}.`);
      }
      try {
        // A UTF-8 byte order mark is not JSON, but it is harmless: skip it.
        (event as { body: unknown }).body = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
      } catch (error) {
        // V8 quotes part of the input in its message: keep it short.
        const reason = error instanceof SyntaxError ? `: ${clip(error.message, 160)}` : '';
        throw apiError(400, `Request body is not valid JSON${reason}.`);
      }
    },
  };
}
