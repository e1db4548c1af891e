import type { SessionCarry } from './sessions/session-carry';
import type { ReceiptFields, StoredEvent } from './issues/stored-event';
import type { FeatureRequestInput } from './payloads';
import type { StoredFeedback } from './feedback/stored-feedback';

/**
 * What the ingest API needs from storage. The DynamoDB adapters in
 * lambda/infrastructure/store implement these, the in-memory ones in lambda/infrastructure/memory; nothing
 * here knows about AWS or HTTP.
 */

/** A publishable key as the ingest API uses it: its tenant, its id, its websites and its limit. Never changes after issue. */
export interface PublishableKey {
  factoryId: string;
  keyId: string;
  /** Normalized origins (lambda/kernel/origins.ts). */
  origins: string[];
  /** Requests per minute. */
  rateLimit: number;
  /** Requests without an Origin (a customer's servers) may report with it (issued with `--servers`). */
  servers?: boolean;
  /** The project id of its Sentry DSN (sentry/dsn.ts). */
  sentryProjectId?: string;
}

export type IngestKeyCheck = { outcome: 'active'; key: PublishableKey } | { outcome: 'unknown' } | { outcome: 'revoked' };

/** A request counted against a limit, or refused by it until `retryAfterSeconds` have passed. */
export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

/** What marking a secret key seen at the ingest API found. */
export type ExposureMark = { marked: true; keyId: string; factoryId: string; count: number } | { marked: false };

export interface IngestKeyAuthorizer {
  /**
   * Whether a publishable key is active, and what it is (tenant, origins,
   * limit). A store may answer from what it saw of the key within the last
   * second (docs/keys.md#revoking): a revoked publishable key is refused
   * within a second, everywhere.
   */
  authenticate(keyHash: string, nowMs: number): Promise<IngestKeyCheck>;
  /** Counts one request against the key's per-minute limit, across every container; `revoked` when the lease it took found the key revoked meanwhile. */
  admitRequest(key: PublishableKey, keyHash: string, nowMs: number): Promise<Admission | { admitted: false; revoked: true }>;
  /**
   * A secret key showed up where browsers call: records the sighting on the
   * key (first and last time, count), in one step, if such a key exists.
   */
  markExposed(keyHash: string, nowMs: number): Promise<ExposureMark>;
  /** The key as this process last saw it allowed, without I/O (origins and tenant never change). */
  knownKey(keyHash: string): PublishableKey | undefined;
}

/** The limits kept per key and client address. */
export type AddressLimitName = 'requests' | 'featureRequests';

/** An admitted request says how many of the sessions it carried were dropped (its visitor's slot full: ./sessions/session-carry.ts). */
export type AddressDecision = { admitted: true; sessionsDropped?: number } | { admitted: false; limit: AddressLimitName; retryAfterSeconds: number };

/**
 * The day's salt of visitor hashes (./visitor-hash.ts): one random value per
 * UTC day, the same for every container, made by whichever asks first, kept
 * apart from the events and gone two days after its day began.
 */
export interface VisitorSalts {
  saltFor(day: string, nowMs: number): Promise<Uint8Array>;
}

export interface AddressLimiter {
  /**
   * Counts one request of a client (the key id and the hash of its address)
   * against the named limits, all or nothing, in one step; across every
   * container. With `sessions`, the same write records the statuses the
   * request's sessions reached (./sessions/session-carry.ts), only when it is
   * admitted; with no limits named, the write records them alone.
   */
  admit(subject: { keyId: string; addressHash: string }, limits: readonly AddressLimitName[], nowMs: number, sessions?: SessionCarry): Promise<AddressDecision>;
}

/**
 * Per-issue limits (docs/ingest-api.md#limits): each issue of a key may take
 * at most half of the key's requests per minute, so that a storm of one error
 * leaves the rest of the key's budget to every other issue of the factory.
 */
export interface IssueLimiter {
  /** Counts one request against the limit of each issue it carries events of; answers per issue. */
  admit(key: PublishableKey, issueIds: readonly string[], nowMs: number): Promise<Map<string, Admission>>;
}

export interface StoredFeatureRequest extends ReceiptFields, FeatureRequestInput {
  /** `fr_` + 16 hex, derived from the factory and requestId. */
  id: string;
  /** The receive time of the write that created it. */
  createdAt: string;
}

/** What became of one event given to the store. */
export type EventOutcome = 'stored' | 'duplicate' | 'failed';

export interface ReportStore {
  /**
   * Stores each event unless the factory has one with its eventId (the
   * second of two events of one call with the same eventId is a duplicate).
   * Each event is its own write: some may fail while others are stored; a
   * failed one may be sent again. The tally counts every stored event into
   * its issue from the table's stream (docs/report-issues.md#exact-counts).
   * When some failed, `failure` is the error of the first of them.
   */
  putEvents(events: readonly StoredEvent[]): Promise<{ outcomes: EventOutcome[]; failure?: unknown }>;
  /** Stores the feature request unless the factory has one with its requestId; answers the stored one. */
  putFeatureRequest(request: StoredFeatureRequest): Promise<{ created: boolean; stored: StoredFeatureRequest }>;
}

/**
 * Resolves the frames of a request's events through their source maps (lambda/ingest/sourcemaps/ingest-frames.ts):
 * each event back with `frames` (resolved, or why not), within the request's time budget. Never throws and
 * never refuses an event: a map that is missing, slow, broken or too large leaves its frames minified.
 */
export interface FrameResolver {
  resolve<T extends StoredEvent>(events: readonly T[]): Promise<T[]>;
}

/** What became of one feedback given to the store: stored, or found stored already (the same id sent again). */
export type FeedbackOutcome = 'stored' | 'duplicate';

/** User feedback in storage (docs/feedback.md): one item per feedback, found by factory, issue and person without a scan. */
export interface FeedbackStore {
  /**
   * Stores each feedback unless the factory has one with its id, with its
   * reporter's person key, and ties it to the issue of its associated event
   * when that event is stored already (otherwise its readers find the issue).
   */
  putFeedback(feedback: readonly StoredFeedback[]): Promise<FeedbackOutcome[]>;
}
