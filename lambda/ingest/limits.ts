import type { RatePolicy } from '../kernel/rate-limit';

/**
 * The ingest API's limits (docs/ingest-api.md#limits and the
 * field tables): one place, so validation, the limiter, the docs and the
 * tests agree.
 */
export const INGEST_BODY_LIMIT_BYTES = 64 * 1024;
export const MAX_EVENTS_PER_REQUEST = 20;
/** Days an event or feature request is kept before DynamoDB's TTL removes it (a deploy option). */
export const DEFAULT_REPORT_RETENTION_DAYS = 90;
export const MAX_TAGS = 50;
/** An event's own `fingerprint`: 1 to this many strings. */
export const MAX_FINGERPRINT_PARTS = 10;
/** An event's `debugIds` (script URL → debug id, docs/source-maps.md): at most this many scripts. */
export const MAX_DEBUG_IDS = 20;

/** Characters kept of each free-text field (longer text is clipped, never refused). */
export const EVENT_TEXT = {
  message: 8192,
  exceptionType: 200,
  exceptionValue: 2048,
  exceptionStack: 16_384,
  pageUrl: 2048,
  release: 200,
  tagKey: 64,
  tagValue: 200,
  reporterEmail: 254,
  reporterName: 200,
  userAgent: 512,
  fingerprintPart: 200,
} as const;

export const FEATURE_REQUEST_TEXT = {
  titleMin: 3,
  title: 140,
  description: 4000,
  category: 64,
} as const;

/** A GCRA policy (lambda/kernel/rate-limit.ts) with the house burst: a tenth of the limit, rounded down. */
export function ratePolicy(limit: number, periodMs: number): RatePolicy {
  return { limit, periodMs, burst: Math.floor(limit / 10) };
}

/** The limits held per publishable key and client address, beside the key's own per-minute limit. */
export interface AddressLimits {
  /** Every request: 60 per minute. */
  requests: RatePolicy;
  /** Feature requests: 10 per hour. */
  featureRequests: RatePolicy;
}

/**
 * Each issue of a key may take half of the key's requests per minute (at
 * least one): a storm of one error leaves the other half to every other issue
 * (docs/ingest-api.md#limits).
 */
export const issueRequestPolicy = (keyRateLimit: number): RatePolicy => ratePolicy(Math.max(1, Math.floor(keyRateLimit / 2)), 60_000);

export const DEFAULT_ADDRESS_LIMITS: AddressLimits = {
  requests: ratePolicy(60, 60_000),
  featureRequests: ratePolicy(10, 3_600_000),
};

/**
 * The Sentry protocol's limits (docs/sentry-sdks.md#limits): a body as sent
 * (compressed or not), the same body decoded (a zip bomb stops there), the
 * items of one envelope, and its events (as many as one own-SDK request).
 */
export const SENTRY_LIMITS = {
  bodyBytes: 512 * 1024,
  decodedBytes: 1024 * 1024,
  envelopeItems: 100,
  eventsPerEnvelope: MAX_EVENTS_PER_REQUEST,
} as const;
