import { generateKey } from '../../../../lambda/kernel/api-key';
import { dsnFor, keyOfSentryPublicKey, SENTRY_PATH, sentryProjectId, sentryPublicKey } from '../../../../lambda/ingest/sentry/dsn';

/** The DSN parser of @sentry/core 11 (dsn.ts): the public key must be word characters. */
const SENTRY_JS_DSN = /^(?:(\w+):)\/\/(?:(\w+)(?::(\w+)?)?@)((?:\[[:.%\w]+\]|[\w.-]+))(?::(\d+))?\/(.+)/;

test('every publishable key gives a DSN the Sentry JavaScript parser takes, whose public key turns back into the key', () => {
  for (let i = 0; i < 200; i += 1) {
    const { secret, keyId } = generateKey('publishable');
    const dsn = dsnFor('http://localhost:3000', secret, keyId);
    const match = SENTRY_JS_DSN.exec(dsn);
    expect(match?.[6]).toBe(`ingest/sentry/${sentryProjectId(keyId)}`);
    expect(keyOfSentryPublicKey(match?.[2] ?? '')).toBe(secret);
  }
});

test('the project id is 15 digits, the same for the same key id', () => {
  expect(sentryProjectId('key_0123456789abcdef')).toMatch(/^[1-9]\d{14}$/);
  expect(sentryProjectId('key_0123456789abcdef')).toBe(sentryProjectId('key_0123456789abcdef'));
});

test("a DSN points at the service's Sentry path, under the API's base without its slash", () => {
  const { secret, keyId } = generateKey('publishable');
  expect(dsnFor('https://api.example.com/', secret, keyId)).toBe(`https://${sentryPublicKey(secret)}@api.example.com${SENTRY_PATH}/${sentryProjectId(keyId)}`);
});

test('a public key that is not one of ours is given back as it is (the key check refuses it)', () => {
  expect(keyOfSentryPublicKey('not-ours')).toBe('not-ours');
});
