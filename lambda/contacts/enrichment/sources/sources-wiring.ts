import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoReferenceDataset } from '../../../infrastructure/store/reference/dynamo-reference-dataset';
import { EmailNameHeuristic } from './email-name-heuristic';
import type { EnrichmentSource } from './source';

/** The configured sources, in priority order: the vendor dataset (its table) first, then the heuristic. The wiring of enrichment's sources. */
export function configuredSources(doc: DynamoDBDocumentClient, referenceTable: string): EnrichmentSource[] {
  return [new DynamoReferenceDataset(doc, referenceTable), new EmailNameHeuristic()];
}
