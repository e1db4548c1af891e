import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { SentryProtocolError } from './protocol-error';

/** The encodings the Sentry SDKs send (Python: gzip always; Node: gzip above 32 KiB) and browsers may: gzip, deflate, br. */
const DECODERS: Record<string, (bytes: Buffer, maxOutputLength: number) => Buffer> = {
  gzip: (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  'x-gzip': (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  // "deflate" is zlib-wrapped by the standard; some clients send it raw.
  deflate: (bytes, maxOutputLength) => {
    try {
      return inflateSync(bytes, { maxOutputLength });
    } catch (error) {
      if (isTooLarge(error)) throw error;
      return inflateRawSync(bytes, { maxOutputLength });
    }
  },
  br: (bytes, maxOutputLength) => brotliDecompressSync(bytes, { maxOutputLength }),
};

const isTooLarge = (error: unknown): boolean => error instanceof RangeError || (error as { code?: string } | null)?.code === 'ERR_BUFFER_TOO_LARGE';

/**
 * The body as sent, decoded per its Content-Encoding (a list is undone last
 * first), each step stopped as soon as its output would pass `maxBytes`: a
 * zip bomb is refused (too-large) having used at most that much memory,
 * never inflated whole.
 */
export function decodeBody(bytes: Buffer, contentEncoding: string | undefined, maxBytes: number): Buffer {
  const encodings = (contentEncoding ?? '')
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => part !== '' && part !== 'identity');
  let body = bytes;
  for (const encoding of encodings.reverse()) {
    const decode = DECODERS[encoding];
    if (!decode)
      throw new SentryProtocolError(
        'encoding',
        `Content-Encoding ${JSON.stringify(encoding.slice(0, 40))} is not accepted: send the body as is, or gzip, deflate or br.`,
      );
    try {
      body = decode(body, maxBytes);
    } catch (error) {
      if (isTooLarge(error)) {
        throw new SentryProtocolError(
          'too-large',
          `The body decompresses to more than ${maxBytes} bytes (${maxBytes / 1024} KiB), the limit: send smaller envelopes.`,
        );
      }
      throw new SentryProtocolError('malformed', `The body is not valid ${encoding} data (truncated or corrupt): send it whole.`);
    }
  }
  if (body.length > maxBytes) {
    throw new SentryProtocolError('too-large', `The body is ${body.length} bytes; the limit is ${maxBytes} bytes (${maxBytes / 1024} KiB).`);
  }
  return body;
}
