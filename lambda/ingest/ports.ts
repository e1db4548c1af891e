import type { CallLog, RateStatus } from '../domain/ports';
import type { FilterReason } from '../issues/issue';
import type { EventToStore } from './issues';
import type { FeatureRequestInput, IngestEvent } from './payloads';

/**
 * What the ingest API needs from storage. The DynamoDB adapters in
 * lambda/store implement these, the in-memory ones in lambda/memory; nothing
 * here knows about AWS or HTTP.
 */

/** A publishable key as the ingest API uses it: its tenant, its id and its websites. Never changes after issue. */
export interface PublishableKey {
  factoryId: string;
  keyId: string;
  /** Normalized origins (lambda/domain/origins.ts). */
  origins: string[];
}

export type IngestKeyDecision =
  | { outcome: 'allowed'; key: PublishableKey; rate: RateStatus }
  | { outcome: 'unknown' }
  | { outcome: 'revoked' }
  /** Over the key's per-minute limit: the key itself is known, so the origin can still be checked first. */
  | { outcome: 'throttled'; key: PublishableKey; retryAfterSeconds: number; rate: RateStatus };

/** What marking a secret key seen at the ingest API found. */
export type ExposureMark = { marked: true; keyId: string; factoryId: string; count: number } | { marked: false };

export interface IngestKeyAuthorizer {
  /**
   * Checks a publishable key (active, of that type) and counts the request
   * against its per-minute limit, in one step; answers the key's origins.
   */
  authorize(keyHash: string, nowMs: number, log?: CallLog): Promise<IngestKeyDecision>;
  /**
   * A secret key showed up where browsers call: records the sighting on the
   * key (first and last time, count), in one step, if such a key exists.
   */
  markExposed(keyHash: string, nowMs: number, log?: CallLog): Promise<ExposureMark>;
  /** The key as this process last saw it allowed, without I/O (origins and tenant never change). */
  knownKey(keyHash: string): PublishableKey | undefined;
}

/** The limits kept per key and client address. */
export type AddressLimitName = 'requests' | 'featureRequests';

export type AddressDecision =
  | { admitted: true }
  | { admitted: false; limit: AddressLimitName; retryAfterSeconds: number };

export interface AddressLimiter {
  /**
   * Counts one request of a client (the key id and the hash of its address)
   * against the named limits, all or nothing, in one step; across every
   * container.
   */
  admit(subject: { keyId: string; addressHash: string }, limits: readonly AddressLimitName[], nowMs: number, log?: CallLog): Promise<AddressDecision>;
}

/** What the server records with every report, besides the report itself. */
export interface ReceiptFields {
  factoryId: string;
  keyId: string;
  /** The website it came from (the request's normalized Origin). */
  origin: string;
  userAgent?: string;
  /** ISO 8601 UTC. */
  receivedAt: string;
  /** When DynamoDB's time to live removes it: epoch seconds. */
  expiresAt: number;
  /**
   * Unique per write: a store that finds its own token on the item it was
   * told exists knows its earlier attempt landed (an answer lost on the way),
   * so a retry is still counted as stored, not as a duplicate.
   */
  writeToken: string;
}

/** An event as stored: its fields as read (payloads.ts; `fingerprint` is the one it sent, for the grouping rule of fingerprint.ts), what the server records, and its issue. */
export interface StoredEvent extends ReceiptFields, IngestEvent {
  /** The issue it was grouped into; absent when it was filtered. */
  issueId?: string;
  /** Why it opens no issue (browser extension, cross-origin "Script error."), when it does not. */
  filtered?: FilterReason;
}

export interface StoredFeatureRequest extends ReceiptFields, FeatureRequestInput {
  /** `fr_` + 16 hex, derived from the factory and requestId. */
  id: string;
  /** The receive time of the write that created it. */
  createdAt: string;
}

export interface ReportStore {
  /**
   * Stores each event unless the factory has one with its eventId, and adds
   * exactly the events stored now to their issues (or the filtered counts),
   * all or nothing: a count grows if and only if its events were stored.
   * Answers per event, in order; the second of two events of one call with
   * the same eventId is a duplicate.
   */
  putEvents(events: readonly EventToStore[], log?: CallLog): Promise<('stored' | 'duplicate')[]>;
  /** Stores the feature request unless the factory has one with its requestId; answers the stored one. */
  putFeatureRequest(request: StoredFeatureRequest, log?: CallLog): Promise<{ created: boolean; stored: StoredFeatureRequest }>;
}

export type { EventView, IssueStore, StatusChange } from '../issues/issue';
