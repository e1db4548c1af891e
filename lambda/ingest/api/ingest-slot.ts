import type { PublishableKey } from '../ports';
import type { SentryRequest } from '../sentry/sentry-request';

/** What an ingest API request alone learns: its slot of the request state (request-state.ts), set by ingestAccess (and sentryBody). */
export interface IngestSlot {
  /** Where the request came from, once its key and origin passed. */
  client?: { origin: string; userAgent?: string; visitor?: string };
  /** The publishable key it came with, once checked: its limit is counted after the body is read. */
  sender?: { key: PublishableKey; keyHash: string };
  /** A Sentry protocol request's body, framed before its key is checked (the key may be in the envelope: sentry-body.ts). */
  sentry?: SentryRequest;
}

/** A request's empty slot: nothing learnt yet. */
export const newIngestSlot = (): IngestSlot => ({});
