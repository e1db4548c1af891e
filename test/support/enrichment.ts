import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { DynamoEnrichmentStore } from '../../lambda/infrastructure/store/contacts/dynamo-enrichment-store';
import type { EnrichmentContext } from '../../lambda/contacts/enrichment/run-pass';
import { configuredSources } from '../../lambda/contacts/enrichment/sources/sources-wiring';
import type { FoundFields } from '../../lambda/contacts/enrichment/sources/source';
import { tables, testDoc } from './local-api';

export const PROVIDER = 'Test Platform';

/** Enrichment wired as the Lambda wires it, on the run's DynamoDB Local. */
export function enrichmentContext(overrides: Partial<EnrichmentContext> = {}): EnrichmentContext {
  const doc = testDoc();
  return {
    store: new DynamoEnrichmentStore(doc, tables.contacts),
    sources: configuredSources(doc, tables.reference),
    provider: PROVIDER,
    ...overrides,
  };
}

/** An address no other test uses, shaped so the name heuristic finds nothing. */
export const uniqueEmail = (label = 'p') => `${label}${randomBytes(5).toString('hex')}@example.com`;

/** Puts a person into the reference dataset, as `enrich -- load-dataset` does. */
export async function referencePerson(email: string, fields: FoundFields) {
  await testDoc().send(new PutCommand({ TableName: tables.reference, Item: { email: email.toLowerCase(), ...fields } }));
}

/** Billed passes recorded for a factory, all periods together. */
export async function billedPasses(factoryId: string): Promise<number> {
  const usage = await new DynamoEnrichmentStore(testDoc(), tables.contacts).usage(factoryId);
  return usage.reduce((sum, record) => sum + record.billedPasses, 0);
}
