import middy from '@middy/core';
import httpErrorHandler from '@middy/http-error-handler';
import { newContactsSlot, type ContactsSlot } from '../../../../lambda/contacts/api/contacts-slot';
import { rateLimitFields, rateLimitHeaders } from '../../../../lambda/contacts/api/rate-limit-headers';
import { apiError } from '../../../../lambda/infrastructure/http/responses';
import type { ApiContext } from '../../../../lambda/infrastructure/http/types';
import { context } from '../../../support/events';

const RATE = { limit: 30_000, remaining: 2_999, windowSeconds: 1 };

describe('rateLimitHeaders', () => {
  test('writes the draft-11 fields: the policy with quota and window, and what remains with its window', () => {
    expect(rateLimitFields(RATE)).toEqual({
      'RateLimit-Policy': '"per-key";q=30000;w=60',
      RateLimit: '"per-key";r=2999;t=1',
    });
  });

  test('adds them to an answer once the key check has decided, beside the headers already there', async () => {
    const handler = middy<unknown, { statusCode: number; headers?: Record<string, string>; body: string }, Error, ApiContext<ContactsSlot>>()
      .use(rateLimitHeaders())
      .handler(async (_event, ctx) => {
        ctx.state.slot.rate = RATE;
        return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body: '{}' };
      });
    const res = await handler({}, context(newContactsSlot()));
    expect(res.headers).toEqual({ 'Content-Type': 'application/json', ...rateLimitFields(RATE) });
  });

  test('adds them to an error answer (429) made after the check, keeping its Retry-After', async () => {
    const handler = middy<unknown, unknown, Error, ApiContext<ContactsSlot>>()
      .use(rateLimitHeaders())
      .use(httpErrorHandler({ logger: false }))
      .handler(async (_event, ctx) => {
        ctx.state.slot.rate = { ...RATE, remaining: 0, windowSeconds: 3 };
        throw apiError(429, 'slow down', { 'Retry-After': '3' });
      });
    const res = (await handler({}, context(newContactsSlot()))) as { statusCode: number; headers: Record<string, string> };
    expect(res.statusCode).toBe(429);
    expect(res.headers).toMatchObject({ 'Retry-After': '3', RateLimit: '"per-key";r=0;t=3', 'RateLimit-Policy': '"per-key";q=30000;w=60' });
  });

  test('adds nothing when no key check decided (refused before it, or it failed)', async () => {
    const handler = middy<unknown, unknown, Error, ApiContext<ContactsSlot>>()
      .use(rateLimitHeaders())
      .use(httpErrorHandler({ logger: false }))
      .handler(async () => {
        throw apiError(401, 'no key');
      });
    const res = (await handler({}, context(newContactsSlot()))) as { headers: Record<string, string> };
    expect(Object.keys(res.headers).filter((name) => name.toLowerCase().startsWith('ratelimit'))).toEqual([]);
  });
});
