import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ENRICHABLE_FIELDS } from '../../../contacts/domain/contact';
import type { EnrichmentSource, FoundFields, LookupSubject } from '../../../contacts/enrichment/sources/source';
import { storageCall } from '../errors';

/**
 * Offline source: the vendor's reference dataset in its own table, loaded by
 * `enrich -- load-dataset` (lines read by lambda/contacts/enrichment/sources/reference-dataset.ts).
 */
export class DynamoReferenceDataset implements EnrichmentSource {
  readonly name = 'reference-dataset';

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async lookup({ email }: LookupSubject): Promise<FoundFields> {
    const result = await storageCall('GetItem (reference dataset)', () => this.doc.send(new GetCommand({ TableName: this.tableName, Key: { email } })));
    const found: FoundFields = {};
    for (const field of ENRICHABLE_FIELDS) {
      const value = result.Item?.[field];
      if (typeof value === 'string' && value !== '') found[field] = value;
    }
    return found;
  }
}
