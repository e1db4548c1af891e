import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { ClearOutcome, ClearWrite, Company, ContactFilter, ContactQuery, ControlStore, Page, PassMarker } from '../../../control/ports';
import { companyCursor, contactCursor } from '../../../kernel/cursor';
import type { StoredContact } from '../../../contacts/enrichment/ports';
import { batchGet } from '../batch-get';
import { itemToContact } from './contact-item';
import { ContactsTable, companyQuery, factoryQuery } from './contacts-table';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression, type QueryExpression } from '../expression';
import { COMPANY_SK_PREFIX, companySortKey, CONTACT_SK_PREFIX, CONTACTS_KEY, PASS_SK_PREFIX } from '../schema';

/**
 * A filtered list reads at most this many contacts per call (DynamoDB filters
 * after reading): a page of rare matches comes back short, with a cursor,
 * instead of reading a whole factory in one call.
 */
export const SCAN_BUDGET = 20_000;
/** Items per Query call of a filtered list. */
const FILTERED_QUERY_LIMIT = 1000;

function companyOf(item: Record<string, unknown>): Company {
  return { id: String(item.id), domain: String(item.domain), name: String(item.name), createdAt: String(item.createdAt) };
}

/** The filter of a contact filter (the same rule as lambda/control/contact-filter.ts), added to `expression`. */
function addFilter(expression: QueryExpression, filter: ContactFilter): void {
  if (filter.enriched === true) expression.filter(expression.is('enriched', '=', true));
  if (filter.enriched === false) expression.filter(expression.or(expression.notExists('enriched'), expression.is('enriched', '<>', true)));
  if (filter.updatedSince !== undefined) expression.filter(expression.is('updatedAt', '>=', filter.updatedSince));
}

/** ControlStore on the contacts table: contacts, companies and pass markers share each factory's partition. */
export class DynamoControlStore extends ContactsTable implements ControlStore {
  /**
   * Query in id order, eventually consistent (half the read cost; a contact
   * written a moment ago may be missing for about a second). Without a filter each call reads exactly the contacts
   * it returns. With one, DynamoDB reads and then filters: calls go on until
   * `limit` match or SCAN_BUDGET contacts were read, and a page that had more
   * matches than needed ends at the last one taken.
   */
  async listContacts(factoryId: string, query: ContactQuery): Promise<Page<StoredContact>> {
    const contacts = factoryQuery(this.tableName, factoryId, CONTACT_SK_PREFIX, (expression) => addFilter(expression, query.filter));
    const filtered = contacts.FilterExpression !== undefined;
    let start = query.cursor === undefined ? undefined : contactCursor.decode(query.cursor, factoryId);
    const items: StoredContact[] = [];
    let read = 0;
    for (;;) {
      const want = query.limit - items.length;
      const page = await storageCall('Query (contacts list)', () =>
        this.doc.send(
          new QueryCommand({
            ...contacts,
            ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: start },
            Limit: filtered ? Math.min(FILTERED_QUERY_LIMIT, SCAN_BUDGET - read) : want,
          }),
        ),
      );
      read += page.ScannedCount ?? 0;
      const found = page.Items ?? [];
      for (const [index, item] of found.entries()) {
        items.push(itemToContact(item));
        if (items.length === query.limit) {
          const more = index < found.length - 1 || page.LastEvaluatedKey !== undefined;
          return { items, next: more ? contactCursor.encode(factoryId, String(item.sk)) : undefined };
        }
      }
      const last = page.LastEvaluatedKey?.sk;
      if (typeof last !== 'string') return { items };
      start = last;
      if (read >= SCAN_BUDGET) return { items, next: contactCursor.encode(factoryId, last) };
    }
  }

  async listCompanies(factoryId: string, cursor: string | undefined, limit: number): Promise<Page<Company>> {
    const start = cursor === undefined ? undefined : companyCursor.decode(cursor, factoryId);
    const page = await storageCall('Query (companies list)', () =>
      this.doc.send(
        new QueryCommand({
          ...factoryQuery(this.tableName, factoryId, COMPANY_SK_PREFIX),
          ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: companySortKey(start) },
          Limit: limit,
        }),
      ),
    );
    const last = page.LastEvaluatedKey?.sk;
    return {
      items: (page.Items ?? []).map(companyOf),
      next: typeof last === 'string' ? companyCursor.encode(factoryId, last.slice(COMPANY_SK_PREFIX.length)) : undefined,
    };
  }

  /**
   * The byCompany index gives the linked contacts' keys (keys only, so only
   * setting or clearing a link writes it), then BatchGetItem reads the
   * contacts themselves. The index is eventually consistent: a contact whose
   * link was just cleared can still be listed there, so the contacts read are
   * checked against the company again.
   */
  async contactsOfCompany(factoryId: string, companyId: string, cursor: string | undefined, limit: number): Promise<Page<StoredContact>> {
    const start = cursor === undefined ? undefined : contactCursor.decode(cursor, factoryId);
    const page = await storageCall('Query (company contacts)', () =>
      this.doc.send(
        new QueryCommand({
          ...companyQuery(this.tableName, factoryId, companyId, CONTACT_SK_PREFIX),
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
      next: typeof last === 'string' ? contactCursor.encode(factoryId, last) : undefined,
    };
  }

  /** The contacts with these ids (absent ones left out), by id. */
  private async contactsById(factoryId: string, ids: string[]): Promise<Map<string, StoredContact>> {
    const items = await batchGet(
      this.doc,
      this.tableName,
      ids.map((sk) => ({ factoryId, sk })),
      {
        operation: 'BatchGetItem (contacts)',
        consistentRead: true,
      },
    );
    return new Map(items.map((item) => [String(item.sk), itemToContact(item)]));
  }

  /**
   * The company a contact links to: its item is in the byCompany index (it
   * carries its id as `companyId`). Company items written before it did are
   * not: for those, the factory's companies are searched by id.
   */
  async findCompany(factoryId: string, companyId: string): Promise<Company | undefined> {
    const indexed = await storageCall('Query (company by id)', () =>
      this.doc.send(new QueryCommand(companyQuery(this.tableName, factoryId, companyId, COMPANY_SK_PREFIX))),
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

  /**
   * One Query per company on the byCompany index (keys only): a company's
   * entry there is its item's key, `company#<domain>`, so the domain needs
   * no read of the item. All at once; a list page names at most its limit.
   */
  async companyDomains(factoryId: string, companyIds: readonly string[]): Promise<Map<string, string>> {
    const found = await Promise.all(
      companyIds.map(async (companyId) => {
        const indexed = await storageCall('Query (company by id)', () =>
          this.doc.send(new QueryCommand(companyQuery(this.tableName, factoryId, companyId, COMPANY_SK_PREFIX))),
        );
        const sk = indexed.Items?.[0]?.sk;
        return typeof sk === 'string' ? ([companyId, sk.slice(COMPANY_SK_PREFIX.length)] as const) : undefined;
      }),
    );
    return new Map(found.filter((entry) => entry !== undefined));
  }

  private async searchCompany(factoryId: string, companyId: string): Promise<Company | undefined> {
    const companies = factoryQuery(this.tableName, factoryId, COMPANY_SK_PREFIX, (expression) => expression.filter(expression.is('id', '=', companyId)));
    let start: Record<string, unknown> | undefined;
    do {
      const page = await storageCall('Query (company search)', () =>
        this.doc.send(new QueryCommand({ ...companies, ExclusiveStartKey: start, ConsistentRead: true })),
      );
      const item = page.Items?.[0];
      if (item) return companyOf(item);
      start = page.LastEvaluatedKey;
    } while (start);
    return undefined;
  }

  async passMarkers(factoryId: string, contactId: string): Promise<PassMarker[]> {
    const result = await storageCall('Query (pass markers)', () =>
      this.doc.send(new QueryCommand({ ...factoryQuery(this.tableName, factoryId, `${PASS_SK_PREFIX}${contactId}#`), ConsistentRead: true })),
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
    const clear = new Expression();
    clear
      .set('updatedAt', plan.at)
      .when(clear.beginsWith(CONTACTS_KEY.sortKey, CONTACT_SK_PREFIX), plan.hadCleared ? clear.exists('cleared') : clear.notExists('cleared'));
    for (const [field, value] of Object.entries(plan.remove)) clear.remove(field).when(clear.is(field, '=', value));
    if (plan.hadCleared) {
      for (const [field, record] of Object.entries(plan.records)) clear.set(['cleared', field], record);
    } else {
      clear.set('cleared', plan.records);
    }
    if (plan.dropFound.length > 0) {
      clear.when(clear.is(['enrichment', 'at'], '=', plan.enrichmentAt));
      for (const field of plan.dropFound) clear.remove(['enrichment', 'fields', field]);
    }
    try {
      const result = await storageCall('UpdateItem (clear)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { factoryId: write.factoryId, sk: write.contactId },
            ...clear.forUpdate(),
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { outcome: 'applied', contact: itemToContact(result.Attributes ?? {}) };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const current = itemOfFailure(error);
      return { outcome: 'conflict', current: current && itemToContact(current) };
    }
  }
}
