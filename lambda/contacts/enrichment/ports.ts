import type { ClearedFields } from '../domain/cleared';
import type { Contact } from '../domain/contact';
import type { PassPlan } from './plan-pass';

/** A contact as stored, with what only the control room sees: pass bookkeeping and clears. */
export interface StoredContact extends Contact {
  /** Time of the last billed pass (internal: never returned by the API). */
  enrichmentCheckedAt?: string;
  /** Fields the control room cleared, and what it cleared (internal: never returned by the API). */
  cleared?: ClearedFields;
}

export type ApplyOutcome =
  /** Written: the contact update and, for a billed pass, the usage increment, together. */
  | { outcome: 'applied' }
  /**
   * Not written. `changed`: the contact is no longer as planned (or is gone):
   * plan again from `current`. `busy`: another transaction held an item: wait, then retry.
   */
  | { outcome: 'conflict'; reason: 'changed' | 'busy'; current?: StoredContact }
  /** This pass (its passId) was applied before: nothing written now. */
  | { outcome: 'duplicate' };

export interface PassWrite {
  factoryId: string;
  /** The contact the plan was made from. */
  contact: StoredContact;
  plan: PassPlan;
  /** Bulk runs also require the contact to be still unenriched and unbilled. */
  bulk: boolean;
  at: string;
  /** Billing period, `YYYY-MM` (UTC). */
  period: string;
  /** The control room's id for this pass: a pass with the same id on this contact is never applied twice. */
  passId?: string;
}

export interface ContactPage {
  /** Contacts of the page that still need a pass (not enriched, never billed). */
  contacts: StoredContact[];
  /** Contacts the page looked at, those passed over included. */
  scanned: number;
  /** Where the next page starts; undefined at the end. */
  next?: string;
}

export interface UsageRecord {
  period: string;
  billedPasses: number;
  lastPassAt?: string;
}

/** What enrichment needs from storage (DynamoDB adapter: lambda/infrastructure/store/contacts/dynamo-enrichment-store.ts). */
export interface EnrichmentStore {
  getContact(factoryId: string, id: string): Promise<StoredContact | undefined>;
  /** Applies a planned pass and bills it, atomically, if the contact is still as planned. */
  applyPass(write: PassWrite): Promise<ApplyOutcome>;
  /** One page of a factory's contacts, in id order, starting after `cursor`. */
  pageOfContacts(factoryId: string, cursor: string | undefined, limit: number): Promise<ContactPage>;
  /** How many contacts the factory has (for progress reporting). */
  countContacts(factoryId: string): Promise<number>;
  usage(factoryId: string): Promise<UsageRecord[]>;
}
