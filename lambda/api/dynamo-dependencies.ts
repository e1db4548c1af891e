import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DEFAULT_ADDRESS_LIMITS, DEFAULT_REPORT_RETENTION_DAYS, type AddressLimits } from '../ingest/limits';
import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { DynamoAddressLimiter } from '../store/dynamo-address-limiter';
import { DynamoContactStore } from '../store/dynamo-contact-store';
import { DynamoIngestKeys } from '../store/dynamo-ingest-keys';
import { DynamoKeyAuthorizer } from '../store/dynamo-key-authorizer';
import { DynamoReportStore } from '../store/dynamo-report-store';
import { tableNamesFromEnv, type TableNames } from '../store/schema';
import type { ContactsDependencies, IngestDependencies } from './routes';

/**
 * The wiring: the only module of lambda/api that knows the stores are
 * DynamoDB. One client shared by the stores of an API (so one set of
 * keep-alive sockets and one key cache per container). Tests and the
 * benchmark call these with a client of their own.
 */
export function dynamoDependencies(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'contacts' | 'keys'>): ContactsDependencies {
  return { contacts: new DynamoContactStore(doc, tables.contacts), keys: new DynamoKeyAuthorizer(doc, tables.keys) };
}

/** What the contacts Lambda entry point runs on: the client and table names from the function's environment. */
export function containerDependencies(env: NodeJS.ProcessEnv = process.env): ContactsDependencies {
  return dynamoDependencies(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env));
}

export interface IngestWiring {
  retentionDays?: number;
  /** The per-address limits (tests and tools that send everything from one address raise them). */
  addressLimits?: AddressLimits;
}

/** The ingest API on DynamoDB: keys table for the key calls, reports table for reports and limiter items. */
export function ingestDynamoDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'keys' | 'reports'>,
  wiring: IngestWiring = {},
): IngestDependencies {
  return {
    keys: new DynamoIngestKeys(doc, tables.keys),
    limiter: new DynamoAddressLimiter(doc, tables.reports, wiring.addressLimits ?? DEFAULT_ADDRESS_LIMITS),
    reports: new DynamoReportStore(doc, tables.reports),
    retentionDays: wiring.retentionDays ?? DEFAULT_REPORT_RETENTION_DAYS,
  };
}

/** Days reports are kept, from `REPORT_RETENTION_DAYS` (the stack's reportRetentionDays option). */
export function retentionDaysFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const days = Number(env.REPORT_RETENTION_DAYS);
  return Number.isSafeInteger(days) && days > 0 ? days : DEFAULT_REPORT_RETENTION_DAYS;
}

/** What the ingest Lambda entry point runs on, from the function's environment. */
export function ingestContainerDependencies(env: NodeJS.ProcessEnv = process.env): IngestDependencies {
  return ingestDynamoDependencies(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env), {
    retentionDays: retentionDaysFromEnv(env),
  });
}
