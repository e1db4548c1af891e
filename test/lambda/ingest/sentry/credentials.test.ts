import { generateKey } from '../../../../lambda/kernel/api-key';
import { readSentryCredential } from '../../../../lambda/ingest/sentry/credentials';
import { dsnFor } from '../../../../lambda/ingest/sentry/dsn';

test('a secret key in X-Sentry-Auth wins over a publishable one in the query, to be marked exposed', () => {
  const secret = generateKey('secret').secret;
  const publishable = generateKey('publishable').secret;
  expect(readSentryCredential({ auth: [`Sentry sentry_key=${secret}`], query: [publishable] })).toEqual({ kind: 'secret', secret });
});

test('the same key in the header, the query and the envelope dsn is one key; an empty sentry_key is missing', () => {
  const { secret, keyId } = generateKey('publishable');
  const dsn = dsnFor('https://api.example.com', secret, keyId);
  const publicKey = new URL(dsn).username;
  expect(readSentryCredential({ auth: [`Sentry sentry_key=${publicKey}, sentry_version=7`], query: [publicKey], dsn })).toEqual({
    kind: 'publishable',
    key: secret,
  });
  expect(readSentryCredential({ auth: [], query: [''] })).toEqual({ kind: 'missing' });
});

test('two different keys, a repeated header, or something that is no key are each said apart', () => {
  const [a, b] = [generateKey('publishable').secret, generateKey('publishable').secret];
  expect(readSentryCredential({ auth: [`Sentry sentry_key=${a}`], query: [b] })).toEqual({ kind: 'conflicting' });
  expect(readSentryCredential({ auth: [`Sentry sentry_key=${a}`, `Sentry sentry_key=${a}`], query: [] })).toEqual({ kind: 'repeated' });
  expect(readSentryCredential({ auth: [], query: ['abc'] })).toEqual({ kind: 'malformed' });
  expect(readSentryCredential({ auth: [], query: [], dsn: 'not a url' })).toEqual({ kind: 'missing' });
});
