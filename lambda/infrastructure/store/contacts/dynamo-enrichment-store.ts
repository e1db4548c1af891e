import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { QueryCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { ENRICHABLE_FIELDS } from '../../../contacts/domain/contact';
import { sha256Hex } from '../../../kernel/hash';
import { contactCursor } from '../../../kernel/cursor';
import type { ApplyOutcome, ContactPage, EnrichmentStore, PassWrite, StoredContact, UsageRecord } from '../../../contacts/enrichment/ports';
import { itemToContact } from './contact-item';
import { ContactsTable, factoryQuery } from './contacts-table';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression } from '../expression';
import { CONTACT_SK_PREFIX, CONTACTS_KEY, EXPIRES_AT, passSortKey, USAGE_SK_PREFIX, usageSortKey } from '../schema';

const PAGE_PROJECTION = ['sk', 'factoryId', 'email', ...ENRICHABLE_FIELDS, 'enriched', 'enrichmentCheckedAt', 'cleared'];

/**
 * A factory's usage of a month is spread over this many items, so passes
 * running in parallel rarely meet on one item (DynamoDB cancels transactions
 * that touch an item another transaction holds). `usage()` adds them up.
 */
export const USAGE_SHARDS = 32;

/** How long a passId is remembered: far longer than any control-room retry. */
const PASS_ID_TTL_SECONDS = 7 * 24 * 3600;

/** The contact in an item a refused condition returned, if any. */
function returnedContact(failure: { Item?: Record<string, unknown> }): StoredContact | undefined {
  const item = itemOfFailure(failure);
  return item && itemToContact(item);
}

/** The contact update of a plan: fields with if_not_exists, guarded by the exact state the plan saw. */
function contactUpdate(write: PassWrite, tableName: string) {
  const { plan, contact } = write;
  const update = new Expression();
  const at = update.value(write.at);
  update.set('updatedAt', at).when(update.beginsWith(CONTACTS_KEY.sortKey, CONTACT_SK_PREFIX));
  for (const [field, isSet] of Object.entries(plan.expectSet)) update.when(isSet ? update.exists(field) : update.notExists(field));
  // A field the pass fills: not cleared in the control room since the plan looked (its value could be the cleared one).
  for (const [field, clearedAt] of Object.entries(plan.expectCleared)) {
    update.when(clearedAt === null ? update.notExists(['cleared', field]) : update.is(['cleared', field, 'at'], '=', clearedAt));
  }
  for (const [field, value] of Object.entries(plan.fill)) update.setOnce(field, value);
  if (plan.markEnriched) update.set('enriched', true);
  if (plan.enrichment) update.set('enrichment', plan.enrichment);
  // Marks a billed pass: bulk runs skip the contact from now on.
  if (plan.billed) update.set('enrichmentCheckedAt', at);
  // The plan decided from the contact's enriched state: require it unchanged.
  update.when(contact.enriched === true ? update.is('enriched', '=', true) : update.notExists('enriched'));
  if (write.bulk) update.when(update.notExists('enrichmentCheckedAt'));
  return { TableName: tableName, Key: { factoryId: write.factoryId, sk: contact.id }, ...update.forUpdate() };
}

/** EnrichmentStore on the contacts table (usage and passId items live in each factory's partition). */
export class DynamoEnrichmentStore extends ContactsTable implements EnrichmentStore {
  /**
   * A billed pass is one TransactWriteItems: the contact update, the usage
   * increment and (with a passId) the pass's marker. All or nothing: no bill
   * without a pass, no pass without a bill, no pass applied twice. Its
   * ClientRequestToken makes the SDK's own retry of a transaction that landed
   * a no-op. A pass that is not billed (a miss recorded on a contact enriched
   * before) is a single conditional UpdateItem.
   */
  async applyPass(write: PassWrite): Promise<ApplyOutcome> {
    const update = contactUpdate(write, this.tableName);
    if (!write.plan.billed) return this.applyUnbilled(write, update);

    const shard = String(parseInt(sha256Hex(write.contact.id).slice(0, 8), 16) % USAGE_SHARDS).padStart(2, '0');
    const usage = new Expression().add('billedPasses', 1).set('period', write.period).set('lastPassAt', write.at);
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      { Update: { ...update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      { Update: { TableName: this.tableName, Key: { factoryId: write.factoryId, sk: usageSortKey(write.period, shard) }, ...usage.forUpdate() } },
    ];
    if (write.passId !== undefined) {
      const marker = new Expression()
        .set('passId', write.passId)
        .set('contactId', write.contact.id)
        .set('at', write.at)
        .set(EXPIRES_AT, Math.floor(Date.parse(write.at) / 1000) + PASS_ID_TTL_SECONDS);
      marker.when(marker.notExists(CONTACTS_KEY.sortKey));
      // An Update, not a Put: a transaction needs the IAM action of each item's operation, and the role has UpdateItem only.
      items.push({
        Update: { TableName: this.tableName, Key: { factoryId: write.factoryId, sk: passSortKey(write.contact.id, write.passId) }, ...marker.forUpdate() },
      });
    }
    try {
      await storageCall('TransactWriteItems (enrichment pass)', () =>
        this.doc.send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items })),
      );
      return { outcome: 'applied' };
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
      const reasons = (error as Error & { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
      if (reasons[2]?.Code === 'ConditionalCheckFailed') return { outcome: 'duplicate' };
      const reason = reasons[0];
      if (reason?.Code === 'ConditionalCheckFailed') {
        return { outcome: 'conflict', reason: 'changed', current: returnedContact(reason) };
      }
      if (reasons.some((r) => r.Code === 'TransactionConflict')) {
        return { outcome: 'conflict', reason: 'busy', current: write.contact };
      }
      throw error;
    }
  }

  private async applyUnbilled(write: PassWrite, update: ReturnType<typeof contactUpdate>): Promise<ApplyOutcome> {
    if (!write.plan.enrichment) return { outcome: 'applied' }; // nothing to write
    try {
      await storageCall('UpdateItem (enrichment record)', () =>
        this.doc.send(new UpdateCommand({ ...update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' })),
      );
      return { outcome: 'applied' };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      return { outcome: 'conflict', reason: 'changed', current: returnedContact(error) };
    }
  }

  async pageOfContacts(factoryId: string, cursor: string | undefined, limit: number): Promise<ContactPage> {
    const start = cursor === undefined ? undefined : contactCursor.decode(cursor, factoryId);
    const contacts = factoryQuery(this.tableName, factoryId, CONTACT_SK_PREFIX, (expression) =>
      // Already enriched or billed: skipped by bulk runs, and never billed again.
      expression.filter(expression.notExists('enriched'), expression.notExists('enrichmentCheckedAt')).project(...PAGE_PROJECTION),
    );
    const page = await storageCall('Query (contacts page)', () =>
      this.doc.send(new QueryCommand({ ...contacts, ExclusiveStartKey: start === undefined ? undefined : { factoryId, sk: start }, Limit: limit })),
    );
    const last = page.LastEvaluatedKey?.sk;
    return {
      contacts: (page.Items ?? []).map(itemToContact),
      scanned: page.ScannedCount ?? 0,
      next: typeof last === 'string' ? contactCursor.encode(factoryId, last) : undefined,
    };
  }

  async countContacts(factoryId: string): Promise<number> {
    const contacts = factoryQuery(this.tableName, factoryId, CONTACT_SK_PREFIX);
    let count = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await storageCall('Query (count contacts)', () =>
        this.doc.send(new QueryCommand({ ...contacts, Select: 'COUNT', ExclusiveStartKey: start })),
      );
      count += page.Count ?? 0;
      start = page.LastEvaluatedKey;
    } while (start);
    return count;
  }

  /** Billed passes per period (month), newest last: the shards of each period added up. */
  async usage(factoryId: string): Promise<UsageRecord[]> {
    const result = await storageCall('Query (usage)', () =>
      this.doc.send(new QueryCommand({ ...factoryQuery(this.tableName, factoryId, USAGE_SK_PREFIX), ConsistentRead: true })),
    );
    const periods = new Map<string, UsageRecord>();
    for (const item of result.Items ?? []) {
      const period = String(item.period);
      const record = periods.get(period) ?? { period, billedPasses: 0 };
      record.billedPasses += Number(item.billedPasses ?? 0);
      const at = item.lastPassAt ? String(item.lastPassAt) : undefined;
      if (at && (!record.lastPassAt || at > record.lastPassAt)) record.lastPassAt = at;
      periods.set(period, record);
    }
    return [...periods.values()].sort((a, b) => a.period.localeCompare(b.period));
  }
}
