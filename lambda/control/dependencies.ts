import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoEnrichmentStore } from '../store/dynamo-enrichment-store';
import { configuredSources } from '../enrichment/sources';
import { DynamoIssueStore } from '../store/dynamo-issue-store';
import { KeyAdmin } from '../store/key-admin';
import { readReport, readReportPage } from '../store/report-page';
import type { TableNames } from '../store/schema';
import { DynamoControlStore } from '../store/dynamo-control-store';
import { addressPolicyFromEnv, alertStoreOf, linkBaseFromEnv } from '../alerts/dependencies';
import type { AddressPolicy } from '../alerts/address-policy';
import type { Resolve } from '../alerts/guarded-lookup';
import { webhookSender } from '../alerts/webhook-sender';
import type { AdminDependencies } from './admin-operations';
import type { AlertOperationsDependencies } from './alert-operations';
import type { ControlDependencies } from './operations';

/** Where the key and report operations work: the keys and reports tables, when the control room is given them. */
export interface AdminWiring {
  tables: Partial<Pick<TableNames, 'keys' | 'reports' | 'alerts'>>;
  /** Which webhook destinations may be reached: from the environment (ALERTS_ALLOW_LOOPBACK) unless given. */
  alertPolicy?: AddressPolicy;
  /** Resolves destination hosts (the system's resolver unless given: a stub in the tests). */
  resolve?: Resolve;
  /** Requests per minute of a new secret key given none. */
  defaultRateLimit?: number;
}

/** The key and report operations on DynamoDB; those whose table is not named stay unconfigured. */
export function adminDependencies(doc: DynamoDBDocumentClient, wiring: AdminWiring): AdminDependencies {
  const { keys, reports } = wiring.tables;
  return {
    ...(keys ? { keys: { admin: new KeyAdmin(doc, keys), defaultRateLimit: wiring.defaultRateLimit } } : {}),
    ...(reports
      ? {
          reports: {
            page: (factoryId, kind, query) => readReportPage(doc, reports, factoryId, kind, query),
            get: (factoryId, kind, id) => readReport(doc, reports, factoryId, kind, id),
          },
        }
      : {}),
  };
}

/**
 * The control room on DynamoDB: one client for the contacts table (contacts,
 * companies, usage, markers), the enrichment reference dataset and the
 * reports table (bug-report issues), and for the keys and reports tables
 * when `admin` names them (key and report operations). The function, the
 * `control` command, the control-room app and the tests all wire it here.
 */
export function controlDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'contacts' | 'reference' | 'reports'>,
  provider: string,
  admin?: AdminWiring,
): ControlDependencies {
  return {
    store: new DynamoControlStore(doc, tables.contacts),
    enrichment: {
      store: new DynamoEnrichmentStore(doc, tables.contacts),
      sources: configuredSources(doc, tables.reference),
      provider,
    },
    issues: new DynamoIssueStore(doc, tables.reports),
    ...(admin ? adminDependencies(doc, admin) : {}),
    ...(admin?.tables.alerts ? { alerts: alertDependencies(doc, admin.tables.alerts, admin) } : {}),
  };
}

/** The alert operations on DynamoDB, with the guarded sender "send a test" uses. */
export function alertDependencies(doc: DynamoDBDocumentClient, table: string, wiring: Pick<AdminWiring, 'alertPolicy' | 'resolve'> = {}): AlertOperationsDependencies {
  const policy = wiring.alertPolicy ?? addressPolicyFromEnv();
  return {
    store: alertStoreOf(doc, table),
    send: webhookSender({ policy, ...(wiring.resolve ? { resolve: wiring.resolve } : {}) }),
    policy,
    ...(wiring.resolve ? { resolve: wiring.resolve } : {}),
    linkBase: linkBaseFromEnv(),
  };
}
