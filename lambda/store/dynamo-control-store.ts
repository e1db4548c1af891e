import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeCursor, encodeCursor } from '../enrichment/cursor';
import type { StoredContact } from '../enrichment/ports';
import { itemToContact } from './contact-item';
import { isConditionalCheckFailed, storageCall } from './errors';
import { COMPANY_SK_PREFIX, CONTACT_SK_PREFIX, CONTACTS_BY_COMPANY, PASS_SK_PREFIX } from './schema';
import type { ClearOutcome, ClearWrite, Company, ContactFilter, ContactQuery, ControlStore, Page, PassMarker } from '../control/ports';

/**
 * A filtered list reads at most this many contacts per call (DynamoDB filters
 * after reading): a page of rare matches comes back short, with a cursor,
 * instead of reading a whole factory in one call.
 */
export const SCAN_BUDGET = 20_000;
/** Items per Query call of a filtered list. */
const FILTERED_QUERY_LIMIT = 1000;
/** BatchGetItem's maximum keys per call. */
const BATCH_GET = 100;

const contactOf = (item: Record<string, unknown>) => itemToContact(item) as StoredContact;

function companyOf(item: Record<string, unknown>): Company {
  return { id: String(item.id), domain: String(item.domain), name: String(item.name), createdAt: String(item.createdAt) };
}

/** The FilterExpression of a contact filter (the same rule as ./contact-filter.ts). */
function filterExpression(filter: ContactFilter) {
  const conditions: string[] = [];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  if (filter.enriched !== undefined) {
    names['#enriched'] = 'enriched';
    if (filter.enriched) {
      values[':true'] = true;
      conditions.push('#enriched = :true');
    } else {
      values[':true'] = true;
      conditions.push('(attribute_not_exists(#enriched) OR #enriched <> :true)');
    }
  }
  if (filter.updatedSince !== undefined) {
    names['#updatedAt'] = 'updatedAt';
    values[':since'] = filter.updatedSince;
    conditions.push('#updatedAt >= :since');
  }
  return conditions.length === 0 ? undefined : { expression: conditions.join(' AND '), names, values };
}

/** ControlStore on the contacts table: contacts, companies and pass markers share each factory's partition. */
export class DynamoControlStore implements ControlStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async getContact(factoryId: string, id: string): Promise<StoredContact | undefined> {
    if (!id.startsWith(CONTACT_SK_PREFIX)) return undefined;
    const result = await storageCall('GetItem (contact)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { factoryId, sk: id }, ConsistentRead: true })),
    );
    return result.Item && contactOf(result.Item);
  }

  /**
   * Query in id order, eventually consistent (half the read cost; a contact
   * written a moment ago may be missing for about a second). Without a filter each call reads exactly the contacts
   * it returns. With one, DynamoDB reads and then filters: calls go on until
   * `limit` match or SCAN_BUDGET contacts were read, and a page that had more
   * matches than needed ends at the last one taken.
   */
  async listContacts(factoryId: string, query: ContactQuery): Promise<Page<StoredContact>> {
    const filter = filterExpression(query.filter);
    let start = query.cursor === undefined ? undefined : decodeCursor(query.cursor, factoryId);
    const items: StoredContact[] = [];
    let read = 0;
    for (;;) {
      const want = query.limit - items.length;
      const page = await storageCall('Query (contacts list)', () =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: '#factoryId = :f AND begins_with(#sk, :ct)',
            FilterExpression: filter?.expression,
            ExpressionAttributeNames: { '#factoryId': 'factoryId', '#sk': 'sk', ...filter?.names },
            ExpressionAttributeValues: { ':f': factoryId, ':ct': CONTACT_SK_PREFIX, ...filter?.values },
            ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: start },
            Limit: filter ? Math.min(FILTERED_QUERY_LIMIT, SCAN_BUDGET - read) : want,
          }),
        ),
      );
      read += page.ScannedCount ?? 0;
      const found = page.Items ?? [];
      for (const [index, item] of found.entries()) {
        items.push(contactOf(item));
        if (items.length === query.limit) {
          const more = index < found.length - 1 || page.LastEvaluatedKey !== undefined;
          return { items, next: more ? encodeCursor(factoryId, String(item.sk)) : undefined };
        }
      }
      const last = page.LastEvaluatedKey?.sk;
      if (typeof last !== 'string') return { items };
      start = last;
      if (read >= SCAN_BUDGET) return { items, next: encodeCursor(factoryId, last) };
    }
  }

  async listCompanies(factoryId: string, cursor: string | undefined, limit: number): Promise<Page<Company>> {
    const start = cursor === undefined ? undefined : decodeCursor(cursor, factoryId, COMPANY_SK_PREFIX);
    const page = await storageCall('Query (companies list)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: '#factoryId = :f AND begins_with(#sk, :co)',
          ExpressionAttributeNames: { '#factoryId': 'factoryId', '#sk': 'sk' },
          ExpressionAttributeValues: { ':f': factoryId, ':co': COMPANY_SK_PREFIX },
          ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: start },
          Limit: limit,
        }),
      ),
    );
    const last = page.LastEvaluatedKey?.sk;
    return { items: (page.Items ?? []).map(companyOf), next: typeof last === 'string' ? encodeCursor(factoryId, last) : undefined };
  }

  /**
   * The byCompany index gives the linked contacts' keys (keys only, so only
   * setting or clearing a link writes it), then BatchGetItem reads the
   * contacts themselves. The index is eventually consistent: a contact whose
   * link was just cleared can still be listed there, so the contacts read are
   * checked against the company again.
   */
  async contactsOfCompany(factoryId: string, companyId: string, cursor: string | undefined, limit: number): Promise<Page<StoredContact>> {
    const start = cursor === undefined ? undefined : decodeCursor(cursor, factoryId);
    const page = await storageCall('Query (company contacts)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: CONTACTS_BY_COMPANY.indexName,
          KeyConditionExpression: '#companyId = :co AND begins_with(#sk, :ct)',
          // Company ids are derived from the factory, but a tenant boundary is checked, not assumed.
          FilterExpression: '#factoryId = :f',
          ExpressionAttributeNames: { '#companyId': 'companyId', '#sk': 'sk', '#factoryId': 'factoryId' },
          ExpressionAttributeValues: { ':co': companyId, ':ct': CONTACT_SK_PREFIX, ':f': factoryId },
          ExclusiveStartKey: start === undefined ? undefined : { companyId, sk: start, factoryId },
          Limit: limit,
        }),
      ),
    );
    const ids = (page.Items ?? []).map((item) => String(item.sk));
    const contacts = await this.contactsById(factoryId, ids);
    const last = page.LastEvaluatedKey?.sk;
    return {
      items: ids.map((id) => contacts.get(id)).filter((contact): contact is StoredContact => contact?.companyId === companyId),
      next: typeof last === 'string' ? encodeCursor(factoryId, last) : undefined,
    };
  }

  /** The contacts with these ids (absent ones left out), 100 per BatchGetItem, unprocessed keys asked again. */
  private async contactsById(factoryId: string, ids: string[]): Promise<Map<string, StoredContact>> {
    const found = new Map<string, StoredContact>();
    for (let offset = 0; offset < ids.length; offset += BATCH_GET) {
      let keys: Record<string, unknown>[] = ids.slice(offset, offset + BATCH_GET).map((sk) => ({ factoryId, sk }));
      for (let attempt = 0; keys.length > 0; attempt += 1) {
        if (attempt > 0) await sleep(Math.min(1000, 25 * 2 ** attempt));
        if (attempt > 8) throw new Error(`DynamoDB kept ${keys.length} keys unprocessed`);
        const result = await storageCall('BatchGetItem (contacts)', () =>
          this.doc.send(new BatchGetCommand({ RequestItems: { [this.tableName]: { Keys: keys, ConsistentRead: true } } })),
        );
        for (const item of result.Responses?.[this.tableName] ?? []) found.set(String(item.sk), contactOf(item));
        keys = (result.UnprocessedKeys?.[this.tableName]?.Keys ?? []) as Record<string, unknown>[];
      }
    }
    return found;
  }

  /**
   * The company a contact links to: its item is in the byCompany index (it
   * carries its id as `companyId`). Company items written before it did are
   * not: for those, the factory's companies are searched by id.
   */
  async findCompany(factoryId: string, companyId: string): Promise<Company | undefined> {
    const indexed = await storageCall('Query (company by id)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: CONTACTS_BY_COMPANY.indexName,
          KeyConditionExpression: '#companyId = :co AND begins_with(#sk, :company)',
          FilterExpression: '#factoryId = :f',
          ExpressionAttributeNames: { '#companyId': 'companyId', '#sk': 'sk', '#factoryId': 'factoryId' },
          ExpressionAttributeValues: { ':co': companyId, ':company': COMPANY_SK_PREFIX, ':f': factoryId },
        }),
      ),
    );
    const sk = indexed.Items?.[0]?.sk;
    if (typeof sk === 'string') {
      const item = await storageCall('GetItem (company)', () =>
        this.doc.send(new GetCommand({ TableName: this.tableName, Key: { factoryId, sk }, ConsistentRead: true })),
      );
      if (item.Item) return companyOf(item.Item);
    }
    return this.searchCompany(factoryId, companyId);
  }

  private async searchCompany(factoryId: string, companyId: string): Promise<Company | undefined> {
    let start: Record<string, unknown> | undefined;
    do {
      const page = await storageCall('Query (company search)', () =>
        this.doc.send(
          new QueryCommand({
            TableName: this.tableName,
            KeyConditionExpression: '#factoryId = :f AND begins_with(#sk, :company)',
            FilterExpression: '#id = :co',
            ExpressionAttributeNames: { '#factoryId': 'factoryId', '#sk': 'sk', '#id': 'id' },
            ExpressionAttributeValues: { ':f': factoryId, ':company': COMPANY_SK_PREFIX, ':co': companyId },
            ExclusiveStartKey: start,
            ConsistentRead: true,
          }),
        ),
      );
      const item = page.Items?.[0];
      if (item) return companyOf(item);
      start = page.LastEvaluatedKey;
    } while (start);
    return undefined;
  }

  async passMarkers(factoryId: string, contactId: string): Promise<PassMarker[]> {
    const result = await storageCall('Query (pass markers)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tableName,
          KeyConditionExpression: '#factoryId = :f AND begins_with(#sk, :pass)',
          ExpressionAttributeNames: { '#factoryId': 'factoryId', '#sk': 'sk' },
          ExpressionAttributeValues: { ':f': factoryId, ':pass': `${PASS_SK_PREFIX}${contactId}#` },
          ConsistentRead: true,
        }),
      ),
    );
    return (result.Items ?? []).map((item) => ({
      passId: String(item.passId),
      at: String(item.at),
      ...(typeof item.expiresAt === 'number' ? { expiresAt: item.expiresAt } : {}),
    }));
  }

  /**
   * One UpdateItem: REMOVE the fields, record each under `cleared` (adding to
   * the map, or creating it), drop cleared values from `enrichment.fields`,
   * move `updatedAt`; conditional on every removed field still holding the
   * value the plan saw, on the `cleared` map being there or not as it saw,
   * and on the enrichment record it trims being the one it saw.
   */
  async applyClear(write: ClearWrite): Promise<ClearOutcome> {
    const { plan } = write;
    const names: Record<string, string> = { '#sk': 'sk', '#updatedAt': 'updatedAt', '#cleared': 'cleared' };
    const values: Record<string, unknown> = { ':ct': CONTACT_SK_PREFIX, ':at': plan.at };
    const sets = ['#updatedAt = :at'];
    const removes: string[] = [];
    const conditions = ['begins_with(#sk, :ct)', plan.hadCleared ? 'attribute_exists(#cleared)' : 'attribute_not_exists(#cleared)'];
    for (const [field, value] of Object.entries(plan.remove)) {
      names[`#${field}`] = field;
      values[`:was_${field}`] = value;
      conditions.push(`#${field} = :was_${field}`);
      removes.push(`#${field}`);
    }
    if (plan.hadCleared) {
      for (const [field, record] of Object.entries(plan.records)) {
        values[`:cleared_${field}`] = record;
        sets.push(`#cleared.#${field} = :cleared_${field}`);
      }
    } else {
      values[':cleared'] = plan.records;
      sets.push('#cleared = :cleared');
    }
    if (plan.dropFound.length > 0) {
      Object.assign(names, { '#enrichment': 'enrichment', '#fields': 'fields', '#enrichmentAt': 'at' });
      values[':enrichmentAt'] = plan.enrichmentAt;
      conditions.push('#enrichment.#enrichmentAt = :enrichmentAt');
      for (const field of plan.dropFound) removes.push(`#enrichment.#fields.#${field}`);
    }
    try {
      const result = await storageCall('UpdateItem (clear)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { factoryId: write.factoryId, sk: write.contactId },
            UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')}`,
            ConditionExpression: conditions.join(' AND '),
            ExpressionAttributeNames: names,
            ExpressionAttributeValues: values,
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { outcome: 'applied', contact: contactOf(result.Attributes ?? {}) };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      // The item a failed condition returns is raw attribute values, even through the document client.
      const item = error.Item;
      return { outcome: 'conflict', current: item ? contactOf(unmarshall(item as Record<string, AttributeValue>)) : undefined };
    }
  }
}
