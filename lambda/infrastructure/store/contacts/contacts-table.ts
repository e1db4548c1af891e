import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredContact } from '../../../contacts/enrichment/ports';
import { itemToContact } from './contact-item';
import { storageCall } from '../errors';
import { QueryExpression, type QueryExpressions } from '../expression';
import { CONTACT_SK_PREFIX, CONTACTS_BY_COMPANY, CONTACTS_KEY } from '../schema';

/**
 * What the contacts table's three adapters (the contacts API's, the control
 * room's, enrichment's) share: the table, and the one way each reads a
 * contact. (The Queries they share are the functions below.)
 */
export abstract class ContactsTable {
  constructor(
    protected readonly doc: DynamoDBDocumentClient,
    protected readonly tableName: string,
  ) {}

  /**
   * One contact of a factory, read strongly consistent; undefined when there
   * is none, or when `id` is not a contact's id (no read: a company's or a
   * marker's sort key names no contact).
   */
  async getContact(factoryId: string, id: string): Promise<StoredContact | undefined> {
    if (!id.startsWith(CONTACT_SK_PREFIX)) return undefined;
    const result = await storageCall('GetItem (contact)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { factoryId, sk: id }, ConsistentRead: true })),
    );
    return result.Item && itemToContact(result.Item);
  }
}

/**
 * A Query of one factory's items of one kind, by sort-key prefix (contacts,
 * companies, usage, one contact's pass markers), in sort-key order.
 * `refine` adds a filter or a projection; the caller adds paging.
 */
export function factoryQuery(
  tableName: string,
  factoryId: string,
  prefix: string,
  refine?: (expression: QueryExpression) => void,
): QueryExpressions & { TableName: string } {
  const expression = new QueryExpression();
  expression.key(expression.is(CONTACTS_KEY.partitionKey, '=', factoryId), expression.beginsWith(CONTACTS_KEY.sortKey, prefix));
  refine?.(expression);
  return { TableName: tableName, ...expression.forQuery() };
}

/**
 * A Query of the byCompany index (keys only): one company's entries whose
 * sort key begins with `prefix` (its contacts: ct_; the company item
 * itself: company#), of this factory only.
 */
export function companyQuery(
  tableName: string,
  factoryId: string,
  companyId: string,
  prefix: string,
): QueryExpressions & { TableName: string; IndexName: string } {
  const expression = new QueryExpression();
  expression.key(expression.is(CONTACTS_BY_COMPANY.partitionKey, '=', companyId), expression.beginsWith(CONTACTS_BY_COMPANY.sortKey, prefix));
  // Company ids are derived from the factory, but a tenant boundary is checked, not assumed.
  expression.filter(expression.is(CONTACTS_KEY.partitionKey, '=', factoryId));
  return { TableName: tableName, IndexName: CONTACTS_BY_COMPANY.indexName, ...expression.forQuery() };
}
