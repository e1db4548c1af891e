import { DeleteCommand, GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VendorRecords } from '../../../control/ports';
import type { StoredEmail } from '../../../kernel/email';
import type { SuppressionKeys } from '../../../contacts/domain/vendor-suppression';
import type { ReferenceRecord } from '../../../contacts/enrichment/sources/reference-dataset';
import { isConditionalCheckFailed, storageCall } from '../errors';
import { Expression } from '../expression';
import { REFERENCE_KEY } from '../schema';

/**
 * The vendor's record of one person in the reference table, for export and
 * erasure (docs/privacy.md#the-vendors-record): read by its key; erased by
 * two single-item writes in this order, the suppression item first (a
 * PutItem kept if one is there), then the record (a DeleteItem that applies
 * only to a record there). A load's write is a transaction conditional on
 * no suppression item (./reference-writer.ts): one that commits before the
 * suppression is deleted here after it, one after the suppression is
 * refused, so no interleaving leaves the record behind.
 */
export class DynamoVendorRecords implements VendorRecords {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly suppressions: SuppressionKeys,
  ) {}

  async recordOf(email: StoredEmail): Promise<ReferenceRecord | undefined> {
    const result = await storageCall('GetItem (vendor record)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { [REFERENCE_KEY.partitionKey]: email }, ConsistentRead: true })),
    );
    return result.Item ? (result.Item as ReferenceRecord) : undefined;
  }

  async erase(email: StoredEmail, at: string): Promise<boolean> {
    const key = await this.suppressions.keyOf(email);
    const once = new Expression();
    once.when(once.notExists(REFERENCE_KEY.partitionKey));
    try {
      await storageCall('PutItem (vendor suppression)', () =>
        this.doc.send(new PutCommand({ TableName: this.tableName, Item: { [REFERENCE_KEY.partitionKey]: key, suppressedAt: at }, ...once.forCondition() })),
      );
    } catch (error) {
      // Suppressed by an earlier erasure: kept as it was, with its first time.
      if (!isConditionalCheckFailed(error)) throw error;
    }
    const there = new Expression();
    there.when(there.exists(REFERENCE_KEY.partitionKey));
    try {
      await storageCall('DeleteItem (vendor record)', () =>
        this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: { [REFERENCE_KEY.partitionKey]: email }, ...there.forCondition() })),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false; // the vendor never knew them, or an earlier erasure removed it
      throw error;
    }
  }
}
