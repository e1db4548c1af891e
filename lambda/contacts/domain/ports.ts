import type { Contact, TextField } from './contact';
import type { Source } from './source';

/**
 * What the domain needs from storage. The DynamoDB adapter in `lambda/infrastructure/store`
 * implements these; nothing here knows about AWS or HTTP.
 */

/** One upsert, applied atomically by the store. */
export interface ContactWrite {
  factoryId: string;
  id: string;
  email: string;
  /** Fields the caller sent; each overwrites the stored value. */
  fields: Partial<Record<TextField, string>>;
  /** Sent source; when absent the stored one is kept, or `api` on creation. */
  source?: Source;
  /** Company to link, only if the contact has no link yet. */
  companyId?: string;
  now: string;
  /** Unique per request: the store marks the record with it on creation. */
  creationToken: string;
}

export interface CompanyRecord {
  factoryId: string;
  id: string;
  domain: string;
  name: string;
  createdAt: string;
}

export interface ContactStore {
  /** Creates or updates the contact in one atomic write; tells which happened. */
  writeContact(write: ContactWrite): Promise<{ contact: Contact; created: boolean }>;
  /** Creates the company unless one with its domain exists (first writer wins). */
  createCompanyIfMissing(company: CompanyRecord): Promise<void>;
  getContact(factoryId: string, id: string): Promise<Contact | undefined>;
}

/** Where a key stands against its limit after a request: what the rate-limit headers say. */
export interface RateStatus {
  /** Requests per minute. */
  limit: number;
  /** Requests that would still be admitted right now. */
  remaining: number;
  /** Whole seconds until one more than `remaining` would be admitted (see lambda/kernel/rate-limit.ts). */
  windowSeconds: number;
}

export type AuthDecision =
  | { outcome: 'allowed'; factoryId: string; keyId: string; rate: RateStatus }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  | { outcome: 'throttled'; retryAfterSeconds: number; rate: RateStatus };

export interface KeyAuthorizer {
  /** Checks the key and counts the request against its limit, in one step. */
  authorize(keyHash: string, nowMs: number): Promise<AuthDecision>;
  /**
   * The factory and key id of a key this process has already seen allowed,
   * without I/O. A key's factory never changes, so this may be used to start
   * a read before `authorize` answers; it says nothing about whether the key
   * is still active or within its limit.
   */
  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined;
}
