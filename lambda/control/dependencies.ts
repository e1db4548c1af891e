import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoEnrichmentStore } from '../store/dynamo-enrichment-store';
import { configuredSources } from '../enrichment/sources';
import { DynamoIssueStore } from '../store/dynamo-issue-store';
import type { TableNames } from '../store/schema';
import { DynamoControlStore } from '../store/dynamo-control-store';
import type { ControlDependencies } from './operations';

/**
 * The control room on DynamoDB: one client for the contacts table (contacts,
 * companies, usage, markers), the enrichment reference dataset and the
 * reports table (bug-report issues). The function, the `control` command
 * and the tests all wire it here.
 */
export function controlDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'contacts' | 'reference' | 'reports'>,
  provider: string,
): ControlDependencies {
  return {
    store: new DynamoControlStore(doc, tables.contacts),
    enrichment: {
      store: new DynamoEnrichmentStore(doc, tables.contacts),
      sources: configuredSources(doc, tables.reference),
      provider,
    },
    issues: new DynamoIssueStore(doc, tables.reports),
  };
}
