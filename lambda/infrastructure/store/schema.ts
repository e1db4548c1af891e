import { CONTACT_ID_PREFIX } from '../../kernel/contact-id-digest';
import type { ReportKind } from '../../ingest/issues/stored-event';

/**
 * Key schema of the tables: the one source for the CDK stack, the local
 * table creation and the code that reads and writes items.
 *
 * contacts table   PK factoryId (S)   SK sk (S)
 *   contact item   sk = contact id        "ct_0123456789abcdef"
 *   company item   sk = "company#" + domain, attributes id = companyId = "co_…"
 *   GSI byCompany  PK companyId, SK sk  (keys only: a company and the contacts linked to it)
 *
 *   usage item     sk = "usage#" + period + "#" + shard ("usage#2026-11#07"): billed enrichment passes
 *   pass item      sk = "pass#" + contact id + "#" + passId: a control-room pass applied (expires)
 *
 * keys table       PK keyHash (S) = sha256 of the secret
 *   person secret  keyHash = "person-secret": the key of person keys (lambda/kernel/person-key.ts); never expires
 *   suppression    keyHash = "suppression-secret": the key of suppression keys (lambda/contacts/domain/vendor-suppression.ts);
 *     secret       never expires
 *   visitor salt   keyHash = "salt#" + UTC day: the day's salt of visitor hashes, apart from the
 *                  reports table that holds the hashes (expires: expiresAt, TTL)
 *   GSI byFactory  PK factoryId, SK keyId  (keys only: `keys list`)
 *   GSI byKeyId    PK keyId                (keys only: `keys revoke`)
 *
 * reference table  PK email (S): the vendor dataset enrichment reads
 *   record         email = the person's stored email: the vendor's fields
 *   suppression    email = "suppressed#" + a keyed hash of an erased email (never the email): a loader's
 *                  write of that person is refused while it is there; never expires
 *
 * reports table    PK pk (S): what the ingest API stores, and its per-address limiter
 *   event item     pk = "event#" + factoryId + "#" + eventId      (one per factory and eventId: the dedupe key)
 *   feature req.   pk = "fr#" + factoryId + "#" + requestId
 *   limiter item   pk = "limit#" + keyId + "#" + address hash    (no feed: never in the index)
 *   issue item     pk = "issue#" + factoryId + "#" + issueId      (events grouped by fingerprint: docs/report-issues.md)
 *   filtered item  pk = "filtered#" + factoryId                   (events filtered out of issues, counted)
 *   feedback item  pk = "feedback#" + factoryId + "#" + feedbackId  (user feedback: docs/feedback.md), in byFeed under
 *                  factoryId + "#feedback#" + shard (FEEDBACK_SHARDS), and in byPerson when it names an email
 *   feedback link  pk = "flink#" + factoryId + "#" + feedbackId     (its issue: in byFeed under factoryId +
 *                  "#feedback-of#" + issueId, or "#feedback-pending" while its event is not stored yet)
 *   GSI byFeed     PK feed = factoryId + "#events" | "#feature-requests" | "#issues#" + status, SK receivedAt
 *                  (an issue's last seen), projecting type and expiresAt: newest first per factory
 *   GSI byIssue    PK issueId (events only), SK receivedAt, projecting expiresAt: an issue's latest events
 *   GSI byPerson   PK person (a keyed hash of the reporter's email: lambda/kernel/person-key.ts), SK receivedAt,
 *                  keys only: the events and feature requests of one person, newest first (sparse: only
 *                  reports with a reporter email carry `person`)
 *   every item expires (expiresAt, TTL)
 *
 * alerts table     PK pk (S)   SK sk (S): issue alerts and their webhook deliveries (docs/alerts.md)
 *   settings       pk = "factory#" + factoryId, sk = "settings"            (spike rule; destination count)
 *   destination    pk = "factory#" + factoryId, sk = "dest#" + dst_…       (a webhook: URL, secret, state)
 *   alert          pk = "alert#" + factoryId + "#" + alertId, sk = "alert" (one per occurrence; expires)
 *   delivery       pk = "delivery#" + factoryId + "#" + dst_…, sk = occurredAt + "#" + alertId
 *                  (one per alert and destination, newest last in its destination's partition; expires)
 */
export const CONTACTS_KEY = { partitionKey: 'factoryId', sortKey: 'sk' } as const;
/** Contacts with a company link, and (since they carry `companyId` too) the companies themselves. */
export const CONTACTS_BY_COMPANY = { indexName: 'byCompany', partitionKey: 'companyId', sortKey: 'sk' } as const;
export const KEYS_KEY = { partitionKey: 'keyHash' } as const;
export const KEYS_BY_FACTORY = { indexName: 'byFactory', partitionKey: 'factoryId', sortKey: 'keyId' } as const;
export const KEYS_BY_KEY_ID = { indexName: 'byKeyId', partitionKey: 'keyId' } as const;

export const REFERENCE_KEY = { partitionKey: 'email' } as const;

export const ALERTS_KEY = { partitionKey: 'pk', sortKey: 'sk' } as const;

export const REPORTS_KEY = { partitionKey: 'pk' } as const;
export const REPORTS_BY_FEED = {
  indexName: 'byFeed',
  partitionKey: 'feed',
  sortKey: 'receivedAt',
  // Small, so an index write stays 1 WCU: enough to filter by type and skip expired items before reading them.
  include: ['type', 'expiresAt'],
} as const;

/** An issue's events, newest first: event items only (an issue item keeps its id in its key, not in `issueId`). */
export const REPORTS_BY_ISSUE = { indexName: 'byIssue', partitionKey: 'issueId', sortKey: 'receivedAt', include: ['expiresAt'] } as const;

/** One person's reports, newest first: keys only (pk, person, receivedAt), so an entry is one write unit. */
export const REPORTS_BY_PERSON = { indexName: 'byPerson', partitionKey: 'person', sortKey: 'receivedAt' } as const;
/** The attribute of a report holding its reporter's person key. */
export const PERSON_ATTRIBUTE = REPORTS_BY_PERSON.partitionKey;
/** The keys-table item holding the person secret. */
export const PERSON_SECRET_KEY = 'person-secret';
/** The keys-table item holding the suppression secret. */
export const SUPPRESSION_SECRET_KEY = 'suppression-secret';

export const eventKey = (factoryId: string, eventId: string): string => `event#${factoryId}#${eventId}`;
export const featureRequestKey = (factoryId: string, requestId: string): string => `fr#${factoryId}#${requestId}`;
export const FEEDBACK_KEY_PREFIX = 'feedback#';
export const feedbackKey = (factoryId: string, feedbackId: string): string => `${FEEDBACK_KEY_PREFIX}${factoryId}#${feedbackId}`;
export const FEEDBACK_LINK_PREFIX = 'flink#';
export const feedbackLinkKey = (factoryId: string, feedbackId: string): string => `${FEEDBACK_LINK_PREFIX}${factoryId}#${feedbackId}`;
/** Who an issue affects (./reports/affected-items.ts): its (issue, person) and (issue, company) pairs. */
export const PERSON_PAIR_PREFIX = 'affected#';
export const COMPANY_PAIR_PREFIX = 'affco#';
/**
 * A factory's feedback is spread over this many byFeed partitions (by its id's first hex digit), so no one index
 * partition takes every feedback of a factory (docs/capacity.md#user-feedback); a listing merges them.
 */
export const FEEDBACK_SHARDS = 4;
export const feedbackShardOf = (feedbackId: string): number => Number.parseInt(feedbackId.slice(0, 1), 16) % FEEDBACK_SHARDS;
export const feedbackFeed = (factoryId: string, shard: number): string => `${factoryId}#feedback#${shard}`;
/** An issue's feedback links; its partition is written once per feedback of that issue. */
export const issueFeedbackFeed = (factoryId: string, issueId: string): string => `${factoryId}#feedback-of#${issueId}`;
/** Links of feedback whose associated event was not stored when the feedback came: their readers look the event up. */
export const pendingFeedbackFeed = (factoryId: string): string => `${factoryId}#feedback-pending`;
export const visitorSaltKey = (day: string): string => `salt#${day}`;
export const limiterKey = (keyId: string, addressHash: string): string => `limit#${keyId}#${addressHash}`;
export const issueLimiterKey = (keyId: string, issueId: string): string => `ilimit#${keyId}#${issueId}`;
/** The feed (byFeed index partition) of each kind of report. */
export const feedOf = (factoryId: string, kind: ReportKind): string => `${factoryId}#${kind}`;

/** A contact's sort key is its id. */
export const CONTACT_SK_PREFIX = CONTACT_ID_PREFIX;
export const COMPANY_SK_PREFIX = 'company#';
export const USAGE_SK_PREFIX = 'usage#';
export const PASS_SK_PREFIX = 'pass#';
/** Attribute DynamoDB's time to live reads (epoch seconds): pass items of the contacts table, every item of the reports table. */
export const EXPIRES_AT = 'expiresAt';

/**
 * Attributes of a report item that are bookkeeping, not the report: dropped
 * when it is read back. Here, not beside the writer, so that the readers
 * (the control room's) carry none of the ingest path's code.
 */
export const REPORT_BOOKKEEPING = ['pk', 'feed', 'writeToken', EXPIRES_AT, 'person'] as const;

export const companySortKey = (domain: string): string => `${COMPANY_SK_PREFIX}${domain}`;
export const usageSortKey = (period: string, shard: string): string => `${USAGE_SK_PREFIX}${period}#${shard}`;
export const passSortKey = (contactId: string, passId: string): string => `${PASS_SK_PREFIX}${contactId}#${passId}`;

export interface TableNames {
  contacts: string;
  keys: string;
  reference: string;
  reports: string;
  alerts: string;
}

/** Names used on one machine (DynamoDB Local) when the environment names none. */
export const LOCAL_TABLE_NAMES: TableNames = {
  contacts: 'contacts',
  keys: 'contacts-keys',
  reference: 'contacts-reference',
  reports: 'contacts-reports',
  alerts: 'contacts-alerts',
};

/** Table names from the environment the stack gives the Lambdas. */
export function tableNamesFromEnv(env: NodeJS.ProcessEnv = process.env): TableNames {
  return {
    contacts: env.CONTACTS_TABLE_NAME || LOCAL_TABLE_NAMES.contacts,
    keys: env.KEYS_TABLE_NAME || LOCAL_TABLE_NAMES.keys,
    reference: env.REFERENCE_TABLE_NAME || LOCAL_TABLE_NAMES.reference,
    reports: env.REPORTS_TABLE_NAME || LOCAL_TABLE_NAMES.reports,
    alerts: env.ALERTS_TABLE_NAME || LOCAL_TABLE_NAMES.alerts,
  };
}
