import { createHmac } from 'node:crypto';
import { VISITOR_HASH_LENGTH } from './issues/visitors';
import { clientSubject } from './address';

/**
 * A visitor's name for one day (docs/report-issues.md#visitors-affected), as
 * privacy-first analytics name visitors: HMAC-SHA256, keyed with the day's
 * salt, of the factory, the client's address (as the limits count it: an
 * IPv4 address or an IPv6 /64) and its user agent; 8 base64url characters
 * (48 bits). The salt is replaced every day and kept apart from the events
 * (lambda/infrastructure/store/keys/dynamo-visitor-salts.ts): without it a hash cannot be tested
 * against candidate addresses, and the same visitor has another hash the
 * next day. Nothing is read from or left in the visitor's browser.
 */
export function visitorHash(salt: Uint8Array, factoryId: string, sourceIp: string | null | undefined, userAgent: string | undefined): string {
  return createHmac('sha256', salt)
    .update(`${factoryId}\n${clientSubject(sourceIp)}\n${userAgent ?? ''}`)
    .digest('base64url')
    .slice(0, VISITOR_HASH_LENGTH);
}

/** The UTC day a salt is for: "2026-11-26". */
export const saltDay = (nowMs: number): string => new Date(nowMs).toISOString().slice(0, 10);
