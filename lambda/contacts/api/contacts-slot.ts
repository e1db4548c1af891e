import type { RateStatus } from '../domain/ports';
import type { Caller } from '../../infrastructure/http/request-state';

/** What a contacts API request alone learns: its slot of the request state (request-state.ts). */
export interface ContactsSlot {
  /**
   * Set when a read runs while its key is still being confirmed (see
   * authenticate.ts): the confirmed caller, or the rejection (401, 429,
   * 503) that must be answered instead of the read's result.
   */
  confirmation?: Promise<Caller>;
  /** Where the key stands against its limit, once the key check decided (allowed or throttled): the rate-limit headers. */
  rate?: RateStatus;
}

/** A request's empty slot: nothing learnt yet. */
export const newContactsSlot = (): ContactsSlot => ({});
