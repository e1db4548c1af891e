import { SLOT_COUNT } from '../../../ingest/sessions/session-carry';

/**
 * Where a visitor's limiter item (schema.ts, limiterKey) keeps the sessions its requests carried
 * (lambda/ingest/sessions/session-carry.ts): read by the limiter's write and by the tally's reading of its stream
 * records (session-records.ts), nowhere else.
 */
export const SESSION_ATTRIBUTES = {
  /** The factory the sessions count for (the key's). */
  factory: 'sfac',
  /** The last request's session keys → their details. */
  details: 'sx',
  /** The last request's aggregate rows with its request token: `{t, r}`. */
  aggregates: 'sa',
  /** The token the limiter writes per request (dynamo-address-limiter.ts). */
  token: 'lastRequest',
} as const;

/** The string set of reached statuses of slot `slot`. */
export const slotAttribute = (slot: number): string => `sr${slot}`;

export const SLOT_ATTRIBUTES: readonly string[] = Array.from({ length: SLOT_COUNT }, (_, slot) => slotAttribute(slot));
