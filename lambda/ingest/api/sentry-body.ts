import { SENTRY_LIMITS } from '../limits';
import { decodeBody } from '../sentry/body-decoding';
import { readSentryCredential } from '../sentry/credentials';
import { SentryProtocolError, type SentryRefusal } from '../sentry/protocol-error';
import { readEnvelopeRequest, readStoreRequest, type SentryRequest } from '../sentry/sentry-request';
import type { IngestCredential } from '../credentials';
import type { BodyReader } from '../../infrastructure/http/pipeline';
import { apiError } from '../../infrastructure/http/responses';
import type { ApiEvent } from '../../infrastructure/http/types';
import { valuesOf } from './ingest-access';

const STATUS: Record<SentryRefusal, number> = { 'too-large': 413, encoding: 415, malformed: 400 };

/** The body's bytes as API Gateway hands them over: base64 for binary media types (gzip, br), text otherwise. */
const bytesOf = (event: ApiEvent): Buffer => (event.body ? Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0));

/**
 * A Sentry route's body, read before its key is checked (the route is
 * body-first) because the key may be in the envelope's header: decoded per
 * its Content-Encoding within the decoded-size limit (a zip bomb is 413
 * before it fills memory), then framed (`kind`: an envelope, or the store
 * endpoint's one event). Any content type is taken (the browser SDK sends
 * text/plain to avoid a preflight, Node none). The route's checks and its
 * operation receive what it read.
 */
export function sentryBody(kind: 'envelope' | 'store'): BodyReader<SentryRequest> {
  return {
    read: (event) => {
      const bytes = bytesOf(event);
      if (bytes.length > SENTRY_LIMITS.bodyBytes) {
        throw apiError(413, `Request body is ${bytes.length} bytes; the limit is ${SENTRY_LIMITS.bodyBytes} bytes (${SENTRY_LIMITS.bodyBytes / 1024} KiB).`);
      }
      try {
        const body = decodeBody(bytes, event.headers?.['content-encoding'], SENTRY_LIMITS.decodedBytes);
        return kind === 'envelope' ? readEnvelopeRequest(body) : readStoreRequest(body);
      } catch (error) {
        if (error instanceof SentryProtocolError) throw apiError(STATUS[error.refusal], error.message);
        throw error;
      }
    },
  };
}

/** Where a Sentry request's key is (credentials.ts): X-Sentry-Auth, ?sentry_key=, the envelope header's dsn. */
export function sentryCredential(event: ApiEvent, body: SentryRequest | undefined): IngestCredential {
  return readSentryCredential({
    auth: valuesOf(event.headers, event.multiValueHeaders, 'x-sentry-auth'),
    query: valuesOf(event.queryStringParameters, event.multiValueQueryStringParameters, 'sentry_key'),
    dsn: body?.header.dsn,
  });
}

/** The messages of a Sentry request's key problems (the ingest API's speak of Authorization and ?key=). */
export const SENTRY_KEY_REJECTIONS = {
  missing: "Missing key: a Sentry SDK sends it from its DSN (X-Sentry-Auth, ?sentry_key= or the envelope's dsn); use the dsn printed by keys create.",
  repeated: 'Send the key once: one X-Sentry-Auth header, one sentry_key parameter.',
  conflicting: "The keys in X-Sentry-Auth, ?sentry_key= and the envelope's dsn differ: send one DSN's key.",
  malformed: 'Unknown key: use the dsn printed by keys create for a publishable key, copied whole.',
};
