/** Limits from the spec (section 8). One place, so docs, validation and tests agree. */
export const BODY_LIMIT_BYTES = 512 * 1024;
export const EMAIL_MAX_CHARS = 254;
export const TEXT_LIMITS = {
  name: 200,
  company: 200,
  title: 200,
  phone: 64,
  page: 2048,
} as const;
export const DEFAULT_RATE_LIMIT_PER_MINUTE = 30_000;
/** A publishable key is bound to 1–50 origins (its origin rule: ./origins.ts). */
export const MAX_ORIGINS_PER_KEY = 50;
/** Requests per minute of a publishable key issued without --rate-limit. */
export const DEFAULT_PUBLISHABLE_RATE_LIMIT = 600;
