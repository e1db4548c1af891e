import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoEnrichmentStore } from '../store/dynamo-enrichment-store';
import { configuredSources } from '../enrichment/sources';
import type { TableNames } from '../store/schema';
import { DynamoControlStore } from '../store/dynamo-control-store';
import type { ControlDependencies } from './operations';

/**
 * The control room on DynamoDB: one client for the contacts table (contacts,
 * companies, usage, markers) and the enrichment reference dataset. The
 * function, the `control` command and the tests all wire it here.
 */
export function controlDependencies(
  doc: DynamoDBDocumentClient,
  tables: Pick<TableNames, 'contacts' | 'reference'>,
  provider: string,
): ControlDependencies {
  return {
    store: new DynamoControlStore(doc, tables.contacts),
    enrichment: {
      store: new DynamoEnrichmentStore(doc, tables.contacts),
      sources: configuredSources(doc, tables.reference),
      provider,
    },
  };
}
