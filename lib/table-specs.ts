/**
 * What each table is, free of CDK imports: the one definition both the CDK
 * stack (lib/tables.ts) and the local tables (local/harness/tables.ts) are built
 * from, so DynamoDB Local always has the key schema, indexes and time-to-live
 * attribute that `cdk deploy` creates. Attribute names come from
 * lambda/infrastructure/store/schema.ts, which the code reading and writing items uses.
 */
import {
  ALERTS_KEY,
  CONTACTS_BY_COMPANY,
  CONTACTS_KEY,
  EXPIRES_AT,
  KEYS_BY_FACTORY,
  KEYS_BY_KEY_ID,
  KEYS_KEY,
  REFERENCE_KEY,
  REPORTS_BY_FEED,
  REPORTS_BY_ISSUE,
  REPORTS_BY_PERSON,
  REPORTS_KEY,
  type TableNames,
} from '../lambda/infrastructure/store/schema';

/** A global secondary index: keys only, or keys and a few small attributes (`include`). */
export interface IndexSpec {
  indexName: string;
  partitionKey: string;
  sortKey?: string;
  /** Non-key attributes projected into the index; none (keys only) when absent. */
  include?: readonly string[];
}

export interface TableSpec {
  /** All key attributes are strings. */
  partitionKey: string;
  sortKey?: string;
  indexes: readonly IndexSpec[];
  /** Epoch-seconds attribute DynamoDB's time to live removes items by. */
  timeToLiveAttribute?: string;
  /** The table's change stream and what its records carry, when it has one (a consumer reads it: lib/tally.ts). */
  stream?: 'NEW_IMAGE' | 'NEW_AND_OLD_IMAGES';
}

export const TABLE_SPECS: Readonly<Record<keyof TableNames, TableSpec>> = {
  contacts: {
    ...CONTACTS_KEY,
    // Keys only: written when a contact's company link is set or cleared, never by other updates.
    indexes: [CONTACTS_BY_COMPANY],
    // Only items that should expire carry it (enrichment passId markers); everything else stays.
    timeToLiveAttribute: EXPIRES_AT,
  },
  // Keys-only indexes: the per-request limiter updates never touch them, so rate limiting costs no index writes.
  // Only the daily visitor salts expire (docs/report-issues.md#visitors-affected); keys never carry expiresAt.
  keys: { ...KEYS_KEY, indexes: [KEYS_BY_FACTORY, KEYS_BY_KEY_ID], timeToLiveAttribute: EXPIRES_AT },
  // The vendor dataset enrichment reads, loaded by `enrich -- load-dataset`.
  reference: { ...REFERENCE_KEY, indexes: [] },
  // What the ingest API stores: events, feature requests (newest first per factory through
  // byFeed), issues (by status and last seen, through byFeed too), the feed pages listing events
  // (byFeed per factory, byIssue per issue), and its limiter items; all expire. Its stream feeds
  // the tally (events into issues) and the alerts: old and new images, so a consumer sees a change.
  // byPerson is sparse and keys only: one index write per report that names a reporter's email
  // (docs/capacity.md#one-persons-reports), what erasure and a contact's reports read.
  reports: { ...REPORTS_KEY, indexes: [REPORTS_BY_FEED, REPORTS_BY_ISSUE, REPORTS_BY_PERSON], timeToLiveAttribute: EXPIRES_AT, stream: 'NEW_AND_OLD_IMAGES' },
  // Issue alerts (docs/alerts.md): a factory's settings and destinations in its partition, each alert and
  // each destination's deliveries in partitions of their own; no index. Alerts and deliveries expire.
  alerts: { ...ALERTS_KEY, indexes: [], timeToLiveAttribute: EXPIRES_AT },
};
