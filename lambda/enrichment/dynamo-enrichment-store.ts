import type { AttributeValue, CancellationReason } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { ENRICHABLE_FIELDS } from '../domain/contact';
import { itemToContact } from '../store/contact-item';
import { storageCall } from '../store/errors';
import { CONTACT_SK_PREFIX, USAGE_SK_PREFIX, usageSortKey } from '../store/schema';
import { decodeCursor, encodeCursor } from './cursor';
import type { ApplyOutcome, ContactPage, EnrichmentStore, PassWrite, StoredContact, UsageRecord } from './ports';

const PAGE_PROJECTION = ['sk', 'factoryId', 'email', ...ENRICHABLE_FIELDS, 'enriched', 'enrichmentCheckedAt'];

/** EnrichmentStore on the contacts table (usage items live in each factory's partition). */
export class DynamoEnrichmentStore implements EnrichmentStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getContact(factoryId: string, id: string): Promise<StoredContact | undefined> {
    if (!id.startsWith(CONTACT_SK_PREFIX)) return undefined;
    const result = await storageCall('GetItem (contact)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { factoryId, sk: id }, ConsistentRead: true })),
    );
    return result.Item && (itemToContact(result.Item) as StoredContact);
  }

  /**
   * One TransactWriteItems: the contact update (fields with if_not_exists,
   * guarded by the exact empty/set state the plan saw) and the usage
   * increment. Both or neither: no bill without a pass, no pass without a
   * bill. The token makes an SDK retry of a landed transaction a no-op.
   */
  async applyPass(write: PassWrite): Promise<ApplyOutcome> {
    const { plan, contact } = write;
    const names: Record<string, string> = { '#sk': 'sk', '#enriched': 'enriched', '#checked': 'enrichmentCheckedAt' };
    const values: Record<string, unknown> = { ':ct': CONTACT_SK_PREFIX, ':at': write.at };
    const sets = ['#checked = :at'];
    const conditions = ['begins_with(#sk, :ct)'];

    for (const [field, isSet] of Object.entries(plan.expectSet)) {
      names[`#${field}`] = field;
      conditions.push(isSet ? `attribute_exists(#${field})` : `attribute_not_exists(#${field})`);
    }
    for (const [field, value] of Object.entries(plan.fill)) {
      values[`:${field}`] = value;
      sets.push(`#${field} = if_not_exists(#${field}, :${field})`);
    }
    if (plan.markEnriched || contact.enriched === true) values[':true'] = true;
    if (plan.markEnriched) sets.push('#enriched = :true');
    if (plan.enrichment) {
      names['#enrichment'] = 'enrichment';
      values[':enrichment'] = plan.enrichment;
      sets.push('#enrichment = :enrichment');
    }
    // The plan decided from the contact's enriched state: require it unchanged.
    conditions.push(contact.enriched === true ? '#enriched = :true' : 'attribute_not_exists(#enriched)');
    if (write.bulk) conditions.push('attribute_not_exists(#checked)');

    try {
      await storageCall('TransactWriteItems (enrichment pass)', () =>
        this.doc.send(
          new TransactWriteCommand({
            ClientRequestToken: write.token,
            TransactItems: [
              {
                Update: {
                  TableName: this.tableName,
                  Key: { factoryId: write.factoryId, sk: contact.id },
                  UpdateExpression: `SET ${sets.join(', ')}`,
                  ConditionExpression: conditions.join(' AND '),
                  ExpressionAttributeNames: names,
                  ExpressionAttributeValues: values,
                  ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
                },
              },
              {
                Update: {
                  TableName: this.tableName,
                  Key: { factoryId: write.factoryId, sk: usageSortKey(write.period) },
                  UpdateExpression: 'ADD #billed :one SET #period = :period, #lastPassAt = :at',
                  ExpressionAttributeNames: { '#billed': 'billedPasses', '#period': 'period', '#lastPassAt': 'lastPassAt' },
                  ExpressionAttributeValues: { ':one': 1, ':period': write.period, ':at': write.at },
                },
              },
            ],
          }),
        ),
      );
      return { outcome: 'applied' };
    } catch (error) {
      if (!(error instanceof Error)) throw error;
      if (error.name === 'IdempotentParameterMismatchException') return { outcome: 'duplicate' };
      if (error.name !== 'TransactionCanceledException') throw error;
      const reasons = (error as Error & { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
      const reason = reasons[0];
      if (reason?.Code === 'ConditionalCheckFailed') {
        const current = reason.Item
          ? (itemToContact(unmarshall(reason.Item as Record<string, AttributeValue>)) as StoredContact)
          : undefined;
        return { outcome: 'conflict', current };
      }
      // Another transaction held the item: read it again and re-plan.
      if (reasons.some((r) => r.Code === 'TransactionConflict')) {
        return { outcome: 'conflict', current: await this.getContact(write.factoryId, contact.id) };
      }
      throw error;
    }
  }

  async pageOfContacts(factoryId: string, cursor: string | undefined, limit: number): Promise<ContactPage> {
    const start = cursor === undefined ? undefined : decodeCursor(cursor, factoryId);
    const names = Object.fromEntries(PAGE_PROJECTION.map((attribute) => [`#${attribute}`, attribute]));
    const page = await storageCall('Query (contacts page)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: '#factoryId = :f AND begins_with(#sk, :ct)',
          // Already enriched or billed: skipped by bulk runs, and never billed again.
          FilterExpression: 'attribute_not_exists(#enriched) AND attribute_not_exists(#enrichmentCheckedAt)',
          ProjectionExpression: PAGE_PROJECTION.map((attribute) => `#${attribute}`).join(', '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: { ':f': factoryId, ':ct': CONTACT_SK_PREFIX },
          ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: start },
          Limit: limit,
        }),
      ),
    );
    const last = page.LastEvaluatedKey?.sk;
    return {
      contacts: (page.Items ?? []).map((item) => itemToContact(item) as StoredContact),
      scanned: page.ScannedCount ?? 0,
      next: typeof last === 'string' ? encodeCursor(factoryId, last) : undefined,
    };
  }

  async countContacts(factoryId: string): Promise<number> {
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await storageCall('Query (count contacts)', () =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: 'factoryId = :f AND begins_with(sk, :ct)',
            ExpressionAttributeValues: { ':f': factoryId, ':ct': CONTACT_SK_PREFIX },
            Select: 'COUNT',
            ExclusiveStartKey: start,
          }),
        ),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  }

  async usage(factoryId: string): Promise<UsageRecord[]> {
    const result = await storageCall('Query (usage)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: 'factoryId = :f AND begins_with(sk, :u)',
          ExpressionAttributeValues: { ':f': factoryId, ':u': USAGE_SK_PREFIX },
          ConsistentRead: true,
        }),
      ),
    );
    return (result.Items ?? []).map((item) => ({
      period: String(item.period),
      billedPasses: Number(item.billedPasses ?? 0),
      ...(item.lastPassAt ? { lastPassAt: String(item.lastPassAt) } : {}),
    }));
  }
}
