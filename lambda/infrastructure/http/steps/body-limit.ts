import type { Check } from '../pipeline';
import { apiError } from '../responses';

/** Decoded size in bytes of a proxy event body, without decoding it. */
export function bodyBytes(body: string | null, isBase64Encoded: boolean): number {
  if (!body) return 0;
  if (!isBase64Encoded) return Buffer.byteLength(body, 'utf8');
  const padding = body.endsWith('==') ? 2 : body.endsWith('=') ? 1 : 0;
  return Math.floor((body.length * 3) / 4) - padding;
}

/** A route's check: refuses bodies larger than `maxBytes` with 413 (docs/contacts-api.md#limits: 512 KiB). */
export function bodyLimit(maxBytes: number): Check {
  return (event) => {
    const size = bodyBytes(event.body, event.isBase64Encoded);
    if (size > maxBytes) {
      throw apiError(413, `Request body is ${size} bytes; the limit is ${maxBytes} bytes (${maxBytes / 1024} KiB).`);
    }
  };
}
