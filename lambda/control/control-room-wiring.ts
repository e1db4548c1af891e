import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoEnrichmentStore } from '../infrastructure/store/contacts/dynamo-enrichment-store';
import { configuredSources } from '../contacts/enrichment/sources/sources-wiring';
import { DynamoReleaseReader } from '../infrastructure/store/reports/release-reader';
import { DynamoIssueStore } from '../infrastructure/store/reports/dynamo-issue-store';
import { KeyAdmin } from '../infrastructure/store/keys/key-admin';
import { readReport, readReportPage } from '../infrastructure/store/reports/report-page';
import { dynamoFeedbackReader } from '../infrastructure/store/feedback/feedback-reader';
import type { TableNames } from '../infrastructure/store/schema';
import { DynamoControlStore } from '../infrastructure/store/contacts/dynamo-control-store';
import { DynamoPersonStore } from '../infrastructure/store/people/dynamo-person-store';
import { DynamoPersonSecret, DynamoSuppressionSecret } from '../infrastructure/store/keys/dynamo-person-secret';
import { DynamoVendorRecords } from '../infrastructure/store/reference/dynamo-vendor-records';
import { PersonKeys } from '../kernel/person-key';
import { SuppressionKeys } from '../contacts/domain/vendor-suppression';
import { addressPolicyFromEnv, alertStoreOf, linkBaseFromEnv } from '../alerts/alerts-wiring';
import type { AddressPolicy } from '../alerts/address-policy';
import type { Resolve } from '../alerts/guarded-lookup';
import { webhookSender } from '../alerts/webhook-sender';
import { MapCache } from '../ingest/sourcemaps/map-cache';
import { SourceMapLoader } from '../ingest/sourcemaps/map-loader';
import type { SourceMapStore } from '../ingest/sourcemaps/ports';
import type { AlertOperationsDependencies, ControlDependencies } from './ports';

/** The tables of the key and report operations: each set is configured only when its table is named. */
export interface KeyAndReportTables {
  keys?: string;
  reports?: string;
  /** The alerts table: the alert operations (docs/alerts.md#destinations). */
  alerts?: string;
  /** Which webhook destinations may be reached: from the environment (ALERTS_ALLOW_LOOPBACK) unless given. */
  alertPolicy?: AddressPolicy;
  /** Resolves destination hosts (the system's resolver unless given: a stub in the tests). */
  resolve?: Resolve;
  /** Requests per minute of a new secret key given none. */
  defaultRateLimit?: number;
  /** The factories' source maps: events' frames shown resolved (docs/source-maps.md#reading-original-frames). */
  sourceMaps?: SourceMapStore;
  /** How long showing an event waits for maps, when not the default (sourceMapBudgetFromEnv). */
  sourceMapBudgetMs?: number;
  /** Where a test alert's link points, read at each test: from the environment (ALERT_LINK_BASE) unless given. */
  linkBase?: () => string;
}

/**
 * The control room on DynamoDB: one client for the contacts table (contacts,
 * companies, usage, markers), the enrichment reference dataset and the
 * reports table (bug-report issues), and for the keys and reports tables
 * when `optional` names them (key and report operations). The function, the
 * `control` command, the control-room app and the tests all wire it here.
 */
const releaseReaders = (reader: DynamoReleaseReader) => ({ releases: reader, clientReports: reader });

export function controlDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'contacts' | 'reference' | 'reports'>,
  provider: string,
  optional: KeyAndReportTables = {},
): ControlDependencies {
  const { keys, reports, alerts, defaultRateLimit, sourceMaps, sourceMapBudgetMs } = optional;
  return {
    store: new DynamoControlStore(doc, tables.contacts),
    enrichment: {
      store: new DynamoEnrichmentStore(doc, tables.contacts),
      sources: configuredSources(doc, tables.reference),
      provider,
    },
    issues: new DynamoIssueStore(doc, tables.reports),
    ...releaseReaders(new DynamoReleaseReader(doc, tables.reports)),
    ...(keys ? { keys: { admin: new KeyAdmin(doc, keys), defaultRateLimit } } : {}),
    ...(reports
      ? {
          reports: {
            page: (factoryId, kind, query) => readReportPage(doc, reports, factoryId, kind, query),
            get: (factoryId, kind, id) => readReport(doc, reports, factoryId, kind, id),
          },
          feedback: dynamoFeedbackReader(doc, { reports, contacts: tables.contacts }),
        }
      : {}),
    // A person's data spans the contacts and reports tables, keyed by the person secret in the keys table,
    // and the vendor's record in the reference table, suppressed by a keyed hash of the suppression secret's.
    ...(keys && reports
      ? {
          people: new DynamoPersonStore(
            doc,
            { contacts: tables.contacts, reports },
            new PersonKeys(new DynamoPersonSecret(doc, keys)),
            new DynamoVendorRecords(doc, tables.reference, new SuppressionKeys(new DynamoSuppressionSecret(doc, keys))),
          ),
        }
      : {}),
    ...(alerts ? { alerts: alertDependencies(doc, alerts, optional) } : {}),
    // Negative answers never kept: a map uploaded a moment ago is used on the next view.
    ...(sourceMaps ? { sourceMaps: new SourceMapLoader(sourceMaps, new MapCache(undefined, Date.now, 0)) } : {}),
    ...(sourceMapBudgetMs ? { sourceMapBudgetMs } : {}),
  };
}

/** The alert operations on DynamoDB, with the guarded sender "send a test" uses. */
export function alertDependencies(
  doc: DynamoDBDocumentClient,
  table: string,
  wiring: Pick<KeyAndReportTables, 'alertPolicy' | 'resolve' | 'linkBase'> = {},
): AlertOperationsDependencies {
  const policy = wiring.alertPolicy ?? addressPolicyFromEnv();
  const linkBase = wiring.linkBase ?? (() => linkBaseFromEnv());
  return {
    store: alertStoreOf(doc, table),
    send: webhookSender({ policy, ...(wiring.resolve ? { resolve: wiring.resolve } : {}) }),
    policy,
    ...(wiring.resolve ? { resolve: wiring.resolve } : {}),
    get linkBase() {
      return linkBase();
    },
  };
}
