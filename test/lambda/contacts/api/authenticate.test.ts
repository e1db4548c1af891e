import middy from '@middy/core';
import { authenticate } from '../../../../lambda/contacts/api/authenticate';
import { answerWhenConfirmed } from '../../../../lambda/contacts/api/speculative-read';
import type { ApiContext, RouteHandler } from '../../../../lambda/infrastructure/http/types';
import { hashSecret } from '../../../../lambda/kernel/api-key';
import type { AuthDecision, KeyAuthorizer } from '../../../../lambda/contacts/domain/ports';
import { context, errorMessage, proxyEvent } from '../../../support/events';

const SECRET = `dfsk_${'k'.repeat(43)}`;
/** Where the key stands against its limit (what the fake authorizers report). */
const RATE = { limit: 100, remaining: 99, windowSeconds: 1 };

/** A KeyAuthorizer answering a fixed decision and recording what it was asked. */
function authorizer(decision: AuthDecision, known?: { factoryId: string; keyId: string }) {
  const calls: string[] = [];
  const keys: KeyAuthorizer = {
    authorize: async (keyHash) => {
      calls.push(keyHash);
      return decision;
    },
    knownCaller: () => known,
  };
  return { keys, calls };
}

/** An authorizer whose answer the test releases, for a key the container has seen. */
function pendingAuthorizer(known: { factoryId: string; keyId: string }) {
  let release!: (decision: AuthDecision) => void;
  let fail!: (error: Error) => void;
  const answer = new Promise<AuthDecision>((resolve, reject) => {
    release = resolve;
    fail = reject;
  });
  const keys: KeyAuthorizer = { authorize: () => answer, knownCaller: () => known };
  return { keys, release, fail };
}

/** The pipeline's shape: authenticate, then routes wrapped by answerWhenConfirmed. */
const withRoute = (keys: KeyAuthorizer, route: RouteHandler) =>
  middy<ReturnType<typeof proxyEvent>, unknown, Error, ApiContext>()
    .use(authenticate(keys, () => 0))
    .handler(answerWhenConfirmed(route));

const KNOWN = { factoryId: 'fac_a', keyId: 'key_1' };
const AUTH = { authorization: `Bearer ${SECRET}` };
const read: RouteHandler = async (_event, ctx) => ({ statusCode: 200, body: JSON.stringify(ctx.state.caller) });

const run = (keys: KeyAuthorizer, headers: Record<string, string>) => {
  const ctx = context();
  const handler = middy()
    .use(authenticate(keys, () => 0))
    .handler(async (_event: unknown, c: typeof ctx) => ({ statusCode: 200, body: JSON.stringify(c.state.caller) }));
  return handler(proxyEvent({ headers }), ctx);
};

describe('authenticate', () => {
  test('sets the caller from the key and asks with the hash, never the secret', async () => {
    const { keys, calls } = authorizer({ outcome: 'allowed', factoryId: 'fac_a', keyId: 'key_1', rate: RATE });
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
    const { keys, calls } = authorizer({ outcome: 'allowed', factoryId: 'fac_a', keyId: 'key_1', rate: RATE });
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
    const { keys } = authorizer({ outcome: 'throttled', retryAfterSeconds: 7, rate: { ...RATE, remaining: 0 } });
    const error = await run(keys, { authorization: `Bearer ${SECRET}` }).catch((e: unknown) => e);
    expect(error).toMatchObject({ statusCode: 429, headers: { 'Retry-After': '7' } });
    expect(errorMessage(error)).toMatch(/100 requests per minute/);
  });

  describe('reads with a key the container has seen', () => {
    test('a GET starts its read before the key is confirmed, and answers once it is', async () => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      let readStarted = false;
      const answer = withRoute(keys, async (event, ctx) => {
        readStarted = true;
        return read(event, ctx);
      })(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      await new Promise((resolve) => setImmediate(resolve));
      expect(readStarted).toBe(true);
      release({ outcome: 'allowed', ...KNOWN, rate: RATE });
      expect(JSON.parse(((await answer) as { body: string }).body)).toEqual(KNOWN);
    });

    test('a POST waits for the confirmation before its route starts', async () => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      let routeStarted = false;
      const answer = withRoute(keys, async (event, ctx) => {
        routeStarted = true;
        return read(event, ctx);
      })(proxyEvent({ httpMethod: 'POST', headers: AUTH }), context() as ApiContext);
      await new Promise((resolve) => setImmediate(resolve));
      expect(routeStarted).toBe(false);
      release({ outcome: 'allowed', ...KNOWN, rate: RATE });
      await answer;
      expect(routeStarted).toBe(true);
    });

    test.each([
      ['revoked', { outcome: 'revoked' } as const, 401],
      ['throttled', { outcome: 'throttled', retryAfterSeconds: 3, rate: { ...RATE, limit: 5, remaining: 0 } } as const, 429],
    ])('the read is discarded when the key turns out %s', async (_label, decision, status) => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      const answer = withRoute(keys, read)(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      release(decision);
      await expect(answer).rejects.toMatchObject({ statusCode: status });
    });

    test("the confirmation's failure wins over the read's own error", async () => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      const notFound = Object.assign(new Error('{"error":"no such contact"}'), { statusCode: 404 });
      const answer = withRoute(keys, async () => {
        throw notFound;
      })(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      release({ outcome: 'unknown' });
      await expect(answer).rejects.toMatchObject({ statusCode: 401 });
    });

    test("the confirmation's failure wins over a route that throws synchronously (the router's 404)", async () => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      const notFound = Object.assign(new Error('{"error":"no such endpoint"}'), { statusCode: 404 });
      const answer = withRoute(keys, () => {
        throw notFound;
      })(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      release({ outcome: 'throttled', retryAfterSeconds: 3, rate: { ...RATE, limit: 5, remaining: 0 } });
      await expect(answer).rejects.toMatchObject({ statusCode: 429 });
    });

    test('a storage failure of the confirmation is the answer even when the read succeeded', async () => {
      const { keys, fail } = pendingAuthorizer(KNOWN);
      const answer = withRoute(keys, read)(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      const outage = new Error('keys table unavailable');
      fail(outage);
      await expect(answer).rejects.toBe(outage);
    });

    test('a confirmation naming another factory makes the read run again for that factory', async () => {
      const { keys, release } = pendingAuthorizer(KNOWN);
      const answer = withRoute(keys, read)(proxyEvent({ httpMethod: 'GET', headers: AUTH }), context() as ApiContext);
      release({ outcome: 'allowed', factoryId: 'fac_b', keyId: 'key_1', rate: RATE });
      expect(JSON.parse(((await answer) as { body: string }).body)).toEqual({ factoryId: 'fac_b', keyId: 'key_1' });
    });
  });
});
