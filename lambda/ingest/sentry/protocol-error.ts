/**
 * Why a Sentry request's body cannot be taken, as the protocol's reader
 * finds it: `too-large` (413: over a limit, a decompression bomb, too many
 * items), `encoding` (415: a Content-Encoding it does not read), `malformed`
 * (400: bad framing, bad JSON). Nothing of such a body is stored.
 */
export type SentryRefusal = 'too-large' | 'encoding' | 'malformed';

export class SentryProtocolError extends Error {
  constructor(
    readonly refusal: SentryRefusal,
    message: string,
  ) {
    super(message);
    this.name = 'SentryProtocolError';
  }
}
