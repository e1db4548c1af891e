import type { Context } from 'aws-lambda';
import { logger } from '../observability/logger';
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
 * Each invocation writes one log line: what was asked, what came of it.
 */
export async function handler(event: unknown, context: Context): Promise<PassResult | BulkResult> {
  const startedAt = performance.now();
  const lambdaRequestId = context.awsRequestId;
  try {
    const request = parseRequest(event);
    if (request.kind === 'refresh') {
      const result = await runPass(enrichment, request.factoryId, request.contactId, {
        bulk: false,
        passId: request.passId,
      });
      logger.info('enrichment refresh', {
        lambdaRequestId,
        factoryId: request.factoryId,
        contactId: result.contactId,
        outcome: result.outcome,
        billed: result.billed,
        latencyMs: Math.round(performance.now() - startedAt),
      });
      return result;
    }
    const result = await runBulk(enrichment, request.factoryId, {
      cursor: request.cursor,
      keepGoing: () => context.getRemainingTimeInMillis() > BULK_RESERVE_MS,
    });
    logger.info('enrichment bulk', {
      lambdaRequestId,
      factoryId: request.factoryId,
      ...result.summary,
      done: result.done,
      latencyMs: Math.round(performance.now() - startedAt),
    });
    return result;
  } catch (error) {
    const failure = error instanceof Error ? error : new Error(String(error));
    logger.error('enrichment failed', { lambdaRequestId, errorClass: failure.name, error: failure.message });
    throw error;
  }
}
