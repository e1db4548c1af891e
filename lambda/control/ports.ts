import type { ClientReportStore, ReleaseStore } from '../ingest/sessions/ports';
import type { AddressPolicy } from '../alerts/address-policy';
import type { Resolve } from '../alerts/guarded-lookup';
import type { AlertStore } from '../alerts/ports';
import type { WebhookSender } from '../alerts/webhook-sender';
import type { KeyType } from '../kernel/api-key';
import type { StoredEmail } from '../kernel/email';
import type { CompanyRecord } from '../contacts/domain/ports';
import type { StoredContact } from '../contacts/enrichment/ports';
import type { EnrichmentContext } from '../contacts/enrichment/run-pass';
import type { ReferenceRecord } from '../contacts/enrichment/sources/reference-dataset';
import type { IssueStore } from '../ingest/issues/issue';
import type { ReportKind } from '../ingest/issues/stored-event';
import type { FeedbackReader } from '../ingest/feedback/stored-feedback';
import type { SourceMapLoader } from '../ingest/sourcemaps/map-loader';
import type { ClearPlan } from './plan-clear';

/**
 * Everything the control room's operations reach outside themselves: the
 * stores (DynamoDB adapters in lambda/infrastructure/store, wired by ./control-room-wiring.ts;
 * in memory in lambda/infrastructure/memory), the clock, and who calls.
 */

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
 * (DynamoDB adapter: lambda/infrastructure/store/contacts/dynamo-control-store.ts; in memory: lambda/infrastructure/memory).
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
  /** The domains of these companies of the factory, by id; a company not found (or written before it carried its id) is left out. */
  companyDomains(factoryId: string, companyIds: readonly string[]): Promise<Map<string, string>>;
  passMarkers(factoryId: string, contactId: string): Promise<PassMarker[]>;
  /** Applies a planned clear if the contact still holds what the plan saw. */
  applyClear(write: ClearWrite): Promise<ClearOutcome>;
}

/** A key as operators see it (never the secret but once, on creation): what `keys list` prints. */
export interface KeyView {
  keyId: string;
  factoryId: string;
  type: KeyType;
  status: 'active' | 'revoked';
  rateLimit: number;
  /** The key's last four characters, to tell keys apart. */
  hint: string;
  createdAt: string;
  revokedAt?: string;
  lastUsedAt?: string;
  origins?: string[];
  /** Publishable keys: whether requests without an Origin (servers) may use it. */
  servers?: boolean;
  /** Publishable keys: the project id of its Sentry DSN. */
  sentryProjectId?: string;
  /** A secret key seen at the ingest API (it leaked): first and last sighting, how many. */
  exposed?: { firstSeenAt: string; lastSeenAt: string; count: number };
  /** Publishable keys: what their SDKs said they discarded over the last days, by reason and category (none said: absent). */
  discarded?: { days: number; counts: { reason: string; category: string; quantity: number }[] };
}

export interface NewKey {
  factoryId: string;
  type: KeyType;
  rateLimit?: number;
  origins?: string[];
  /** Publishable keys only: requests without an Origin (a customer's servers) may use it too. */
  servers?: boolean;
  now?: Date;
}

/** Issuing, listing and revoking keys (DynamoDB adapter: lambda/infrastructure/store/keys/key-admin.ts). */
export interface KeyAdminPort {
  create(options: NewKey): Promise<KeyView & { key: string }>;
  list(factoryId: string): Promise<KeyView[]>;
  revoke(keyId: string, now: Date, factoryId: string): Promise<KeyView | undefined>;
}

export interface ReportPageQuery {
  cursor?: string;
  limit: number;
  /** Events of this type only. */
  type?: string;
  /** Items past this time (epoch ms) have expired and are skipped. */
  nowMs?: number;
}

export interface ReportPage {
  items: Record<string, unknown>[];
  /** Where the next page starts; absent at the end. */
  next?: string;
}

/** What the ingest API stored, read for the control room (DynamoDB adapter: lambda/infrastructure/store/reports/report-page.ts). */
export interface ReportFeedPort {
  page(factoryId: string, kind: ReportKind, query: ReportPageQuery): Promise<ReportPage>;
  get(factoryId: string, kind: ReportKind, id: string): Promise<Record<string, unknown> | undefined>;
}

/** A report one person sent, as the byPerson index lists it: which kind, its eventId or requestId, when it came. */
/** A person's report: an event, a feature request, or their feedback (docs/feedback.md). */
export type PersonReportKind = ReportKind | 'feedback';

export interface PersonReportRef {
  kind: PersonReportKind;
  id: string;
  receivedAt: string;
}

/**
 * One person's data where it is not found by contact id: the person key of
 * an email, and the reports carrying it (docs/privacy.md#finding-a-persons-data);
 * and the deletes an erasure makes. DynamoDB adapter:
 * lambda/infrastructure/store/people/dynamo-person-store.ts; in memory: lambda/infrastructure/memory/memory-person-store.ts.
 */
export interface PersonStore {
  /** The keyed hash reports carry for this email in this factory. */
  personKey(factoryId: string, email: string): Promise<string>;
  /** A page of the person's reports, newest first (cursor bound to the factory and person). */
  reportsOf(factoryId: string, person: string, cursor: string | undefined, limit: number): Promise<Page<PersonReportRef>>;
  /** The reports as the control room shows them, in the order given; gone or expired ones left out. */
  readReports(factoryId: string, refs: readonly PersonReportRef[], nowMs: number): Promise<Record<string, unknown>[]>;
  /**
   * Removes the reporter (email, name) and the person key from a report still carrying `person`; false when it no
   * longer did. Feedback, the person's own words, is deleted whole (with its issue link).
   */
  forgetReporter(factoryId: string, ref: PersonReportRef, person: string): Promise<boolean>;
  /** Deletes the contact if it is still as read (`updatedAt`); 'conflict' when it changed or is gone meanwhile. */
  deleteContact(factoryId: string, contactId: string, seenUpdatedAt: string): Promise<'deleted' | 'conflict'>;
  /** Deletes these pass markers of the contact (absent ones are no error). */
  deletePassMarkers(factoryId: string, contactId: string, passIds: readonly string[]): Promise<void>;
  /** The vendor's record of the person, in the reference table every factory shares. */
  readonly vendor: VendorRecords;
}

/**
 * The vendor's record of one email in the reference table, which every
 * factory's enrichment reads (docs/privacy.md#the-vendors-record). DynamoDB
 * adapter: lambda/infrastructure/store/reference/dynamo-vendor-records.ts; in memory:
 * lambda/infrastructure/memory/memory-reference-dataset.ts.
 */
export interface VendorRecords {
  /** The record as stored (the email and the vendor's fields); undefined when the vendor does not know the email. */
  recordOf(email: StoredEmail): Promise<ReferenceRecord | undefined>;
  /**
   * Suppresses the email (its keyed hash, for good: no writer of the table
   * adds it again), then deletes its record: true when there was one.
   * Idempotent; the suppression comes first, so a load racing it cannot
   * leave a record behind.
   */
  erase(email: StoredEmail, at: string): Promise<boolean>;
}

/** Who asks: the caller's IAM principal (on AWS, the ARN the function URL's IAM auth verified). */
export interface Caller {
  principal: string;
}

/** What the operations run on. The key and report operations are there only when their tables were given. */
export interface ControlDependencies {
  store: ControlStore;
  enrichment: EnrichmentContext;
  /** Bug-report issues of the ingest API (docs/report-issues.md). */
  issues: IssueStore;
  keys?: {
    admin: KeyAdminPort;
    /** Requests per minute of a new secret key given none (the stack's defaultRateLimit); KeyAdmin's own default otherwise. */
    defaultRateLimit?: number;
  };
  reports?: ReportFeedPort;
  /** Release health (docs/release-health.md): the releases' counters (there when the reports table is). */
  releases?: ReleaseStore;
  /** What the SDKs said they discarded, per key and day (docs/release-health.md#what-the-sdks-dropped). */
  clientReports?: ClientReportStore;
  /** A person's data across the tables: erasure, export, a contact's reports (there when the keys and reports tables are). */
  people?: PersonStore;
  /** User feedback (docs/feedback.md): a factory's and an issue's (there when the reports table is). */
  feedback?: FeedbackReader;
  /** The factories' source maps, to show events' original frames (docs/source-maps.md#reading-original-frames); without, frames as resolved at ingest. */
  sourceMaps?: SourceMapLoader;
  /** How long showing an event waits for maps, when not DISPLAY_BUDGET_MS (sourceMapBudgetFromEnv). */
  sourceMapBudgetMs?: number;
  /** Issue alerts: webhook destinations, their deliveries, the spike settings (docs/alerts.md). */
  alerts?: AlertOperationsDependencies;
  now?: () => Date;
}

/** What the alert operations run on: the alert store, and the guarded sender "send a test" uses. */
export interface AlertOperationsDependencies {
  store: AlertStore;
  send: WebhookSender;
  /** Which destinations may be added: public addresses only on a stack, loopback too under npm start. */
  policy: AddressPolicy;
  /** Resolves a new destination's host (a stub in the tests). */
  resolve?: Resolve;
  /** Where payload links point. */
  linkBase: string;
}
