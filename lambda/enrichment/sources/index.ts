import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { EmailNameHeuristic } from './email-name-heuristic';
import { ReferenceDataset } from './reference-dataset';
import type { EnrichmentSource } from './source';

/** The configured sources, in priority order: the vendor dataset first, then the heuristic. */
export function configuredSources(doc: DynamoDBDocumentClient, referenceTable: string): EnrichmentSource[] {
  return [new ReferenceDataset(doc, referenceTable), new EmailNameHeuristic()];
}
