import type { Context } from 'aws-lambda';
import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { tableNamesFromEnv } from '../store/schema';
import { platformName } from './config';
import { DynamoEnrichmentStore } from './dynamo-enrichment-store';
import { parseRequest } from './request';
import { runBulk, type BulkResult } from './run-bulk';
import { runPass, type EnrichmentContext, type PassResult } from './run-pass';
import { configuredSources } from './sources';

// Once per container.
const tables = tableNamesFromEnv();
const doc = createDocumentClient(dynamoConfigFromEnv());
const enrichment: EnrichmentContext = {
  store: new DynamoEnrichmentStore(doc, tables.contacts),
  sources: configuredSources(doc, tables.reference),
  provider: platformName(),
};

/** A bulk invocation takes no new page once less than this is left of its time. */
const BULK_RESERVE_MS = 60_000;

/**
 * The internal enrichment Lambda, invoked by the control room with IAM (no
 * API route leads here):
 *   {factoryId, contactId, passId?}  refresh one contact (a deliberate re-enrichment)
 *   {factoryId, cursor?}             bulk run; call again with the returned cursor until done
 * A bad request fails the invocation with a message saying what to fix.
 */
export async function handler(event: unknown, context: Context): Promise<PassResult | BulkResult> {
  const request = parseRequest(event);
  if (request.kind === 'refresh') {
    return runPass(enrichment, request.factoryId, request.contactId, { bulk: false, passId: request.passId });
  }
  return runBulk(enrichment, request.factoryId, {
    cursor: request.cursor,
    keepGoing: () => context.getRemainingTimeInMillis() > BULK_RESERVE_MS,
  });
}
