import { SentryProtocolError } from '../../../../lambda/ingest/sentry/protocol-error';

test('a Sentry request refused carries its kind (too large, an encoding, malformed) beside the words', () => {
  const error = new SentryProtocolError('encoding', 'Content-Encoding "zstd" is not accepted');
  expect(error).toMatchObject({ name: 'SentryProtocolError', refusal: 'encoding', message: 'Content-Encoding "zstd" is not accepted' });
  expect(error).toBeInstanceOf(Error);
});
