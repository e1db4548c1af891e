import type { CompanyRecord } from '../domain/ports';
import type { StoredContact } from '../enrichment/ports';
import type { ClearPlan } from './plan-clear';

/** One page of a list, in key order; `next` continues after it, absent at the end. */
export interface Page<T> {
  items: T[];
  next?: string;
}

/** Which contacts a list shows: all when empty. */
export interface ContactFilter {
  /** true: `enriched` is true; false: it is not. */
  enriched?: boolean;
  /** ISO 8601 UTC (as `updatedAt` is written): contacts updated at or after it. */
  updatedSince?: string;
}

export interface ContactQuery {
  filter: ContactFilter;
  cursor?: string;
  /** At most this many contacts. */
  limit: number;
}

/** A company as the control room shows it. */
export type Company = Omit<CompanyRecord, 'factoryId'>;

/** A control-room pass applied to a contact (enrichment's passId marker). */
export interface PassMarker {
  passId: string;
  at: string;
  /** Epoch seconds after which DynamoDB removes the marker. */
  expiresAt?: number;
}

/** A planned clear and the contact it was planned from. */
export interface ClearWrite {
  factoryId: string;
  contactId: string;
  plan: ClearPlan;
}

export type ClearOutcome =
  | { outcome: 'applied'; contact: StoredContact }
  /** The contact no longer holds what the plan saw (or is gone): plan again from `current`. */
  | { outcome: 'conflict'; current?: StoredContact };

/**
 * What the control room needs from storage beyond enrichment's port
 * (DynamoDB adapter: lambda/store/dynamo-control-store.ts; in memory: lambda/memory).
 */
export interface ControlStore {
  getContact(factoryId: string, id: string): Promise<StoredContact | undefined>;
  /**
   * Up to `limit` contacts matching the filter, in id order, after the
   * cursor. `next` is set whenever more may remain; a filtered page may hold
   * fewer than `limit` (even none) when matches are rare: the store bounds
   * how much it reads per call.
   */
  listContacts(factoryId: string, query: ContactQuery): Promise<Page<StoredContact>>;
  /** The factory's companies, in domain order. */
  listCompanies(factoryId: string, cursor: string | undefined, limit: number): Promise<Page<Company>>;
  /** The contacts linked to one company, in id order. */
  contactsOfCompany(factoryId: string, companyId: string, cursor: string | undefined, limit: number): Promise<Page<StoredContact>>;
  findCompany(factoryId: string, companyId: string): Promise<Company | undefined>;
  passMarkers(factoryId: string, contactId: string): Promise<PassMarker[]>;
  /** Applies a planned clear if the contact still holds what the plan saw. */
  applyClear(write: ClearWrite): Promise<ClearOutcome>;
}
