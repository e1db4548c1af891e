import type { MiddlewareObj } from '@middy/core';
import type { RateStatus } from '../domain/ports';
import type { ApiContext, ApiResult } from '../../infrastructure/http/types';
import type { ContactsSlot } from './contacts-slot';

/** The policy's name in both fields: one quota per API key. */
const POLICY = '"per-key"';

/**
 * The fields of the IETF HTTPAPI draft "RateLimit header fields for HTTP"
 * (draft-ietf-httpapi-ratelimit-headers-11, May 2026): `RateLimit-Policy`
 * names the quota `q` per window `w` seconds; `RateLimit` says what is
 * available now (`r`) and the seconds within which no more than that will
 * be (`t`, rounded up, like Retry-After). Both are structured-field lists
 * whose items are strings.
 */
export function rateLimitFields(rate: RateStatus): Record<string, string> {
  return {
    'RateLimit-Policy': `${POLICY};q=${rate.limit};w=60`,
    RateLimit: `${POLICY};r=${rate.remaining};t=${rate.windowSeconds}`,
  };
}

/**
 * Adds the rate-limit fields to every answer of a request whose key check
 * decided (its slot's `rate`, set by authenticate): successes, 4xx after the
 * check, 429, and a 503 of the operation. Answers refused before the check
 * (an Origin header, a missing or malformed key) and those whose check
 * itself failed (unknown or revoked key, storage) carry none. A speculative
 * read's answer waits for the check (speculative-read.ts), so its fields
 * are the check's too.
 */
export function rateLimitHeaders(): MiddlewareObj<unknown, ApiResult, Error, ApiContext<ContactsSlot>> {
  const apply = ({ response, context: { state } }: { response: ApiResult | null; context: ApiContext<ContactsSlot> }) => {
    const { rate } = state.slot;
    if (!response || !rate) return;
    Object.assign((response.headers ??= {}), rateLimitFields(rate));
  };
  return { name: 'rateLimitHeaders', after: apply, onError: apply };
}
