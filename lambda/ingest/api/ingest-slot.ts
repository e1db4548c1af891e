import type { PublishableKey } from '../ports';

/** What an ingest API request alone learns: its slot of the request state (request-state.ts), set by ingestAccess. */
export interface IngestSlot {
  /** Where the request came from, once its key and origin passed. */
  client?: { origin: string; userAgent?: string; visitor?: string };
  /** The publishable key it came with, once checked: its limit is counted after the body is read. */
  sender?: { key: PublishableKey; keyHash: string; keyCounted?: boolean };
}

/** A request's empty slot: nothing learnt yet. */
export const newIngestSlot = (): IngestSlot => ({});
