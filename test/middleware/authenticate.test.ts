import middy from '@middy/core';
import { authenticate } from '../../lambda/api/middleware/authenticate';
import { hashSecret } from '../../lambda/domain/api-key';
import type { AuthDecision, KeyAuthorizer } from '../../lambda/domain/ports';
import { context, errorMessage, proxyEvent } from '../support/events';

const SECRET = `dfsk_${'k'.repeat(43)}`;

/** A KeyAuthorizer answering a fixed decision and recording what it was asked. */
function authorizer(decision: AuthDecision) {
  const calls: string[] = [];
  const keys: KeyAuthorizer = {
    authorize: async (keyHash) => {
      calls.push(keyHash);
      return decision;
    },
  };
  return { keys, calls };
}

const run = (keys: KeyAuthorizer, headers: Record<string, string>) => {
  const ctx = context();
  const handler = middy()
    .use(authenticate(keys, () => 0))
    .handler(async (_event: unknown, c: typeof ctx) => ({ statusCode: 200, body: JSON.stringify(c.caller) }));
  return handler(proxyEvent({ headers }), ctx);
};

describe('authenticate', () => {
  test('sets the caller from the key and asks with the hash, never the secret', async () => {
    const { keys, calls } = authorizer({ outcome: 'allowed', factoryId: 'fac_a', keyId: 'key_1' });
    const res = await run(keys, { authorization: `Bearer ${SECRET}` });
    expect(JSON.parse(res.body)).toEqual({ factoryId: 'fac_a', keyId: 'key_1' });
    expect(calls).toEqual([hashSecret(SECRET)]);
  });

  test.each([
    ['no header', {}],
    ['a Basic header', { authorization: 'Basic abc' }],
    ['a publishable key', { authorization: `Bearer dfpk_${'p'.repeat(43)}` }],
    ['a malformed key', { authorization: 'Bearer dfsk_x' }],
  ])('answers 401 for %s without asking the store', async (_label, headers) => {
    const { keys, calls } = authorizer({ outcome: 'allowed', factoryId: 'fac_a', keyId: 'key_1' });
    await expect(run(keys, headers)).rejects.toMatchObject({ statusCode: 401 });
    expect(calls).toEqual([]);
  });

  test.each([
    ['unknown', { outcome: 'unknown' } as const, /Unknown API key/],
    ['revoked', { outcome: 'revoked' } as const, /revoked/],
  ])('answers 401 for an %s key', async (_label, decision, message) => {
    const error = await run(authorizer(decision).keys, { authorization: `Bearer ${SECRET}` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 401, headers: { 'WWW-Authenticate': 'Bearer realm="contacts"' } });
    expect(errorMessage(error)).toMatch(message);
  });

  test('answers 429 with Retry-After when throttled', async () => {
    const { keys } = authorizer({ outcome: 'throttled', retryAfterSeconds: 7, limitPerMinute: 100 });
    const error = await run(keys, { authorization: `Bearer ${SECRET}` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '7' } });
    expect(errorMessage(error)).toMatch(/100 requests per minute/);
  });
});
