import type { AttributeValue, CancellationReason } from '@aws-sdk/client-dynamodb';
import {
  GetCommand,
  QueryCommand,
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { randomUUID } from 'node:crypto';
import { ENRICHABLE_FIELDS } from '../domain/contact';
import { sha256Hex } from '../domain/hash';
import { itemToContact } from './contact-item';
import { isConditionalCheckFailed, storageCall } from './errors';
import { CONTACT_SK_PREFIX, passSortKey, USAGE_SK_PREFIX, usageSortKey } from './schema';
import { decodeCursor, encodeCursor } from '../enrichment/cursor';
import type { ApplyOutcome, ContactPage, EnrichmentStore, PassWrite, StoredContact, UsageRecord } from '../enrichment/ports';

const PAGE_PROJECTION = ['sk', 'factoryId', 'email', ...ENRICHABLE_FIELDS, 'enriched', 'enrichmentCheckedAt', 'cleared'];

/**
 * A factory's usage of a month is spread over this many items, so passes
 * running in parallel rarely meet on one item (DynamoDB cancels transactions
 * that touch an item another transaction holds). `usage()` adds them up.
 */
export const USAGE_SHARDS = 32;

/** How long a passId is remembered: far longer than any control-room retry. */
const PASS_ID_TTL_SECONDS = 7 * 24 * 3600;

/** The contact in an item a failed condition returned (raw attribute values, even through the document client). */
function returnedContact(item: Record<string, unknown> | undefined): StoredContact | undefined {
  return item ? (itemToContact(unmarshall(item as Record<string, AttributeValue>)) as StoredContact) : undefined;
}

/** The contact update of a plan: fields with if_not_exists, guarded by the exact state the plan saw. */
function contactUpdate(write: PassWrite, tableName: string) {
  const { plan, contact } = write;
  const names: Record<string, string> = { '#sk': 'sk', '#enriched': 'enriched', '#updatedAt': 'updatedAt' };
  const values: Record<string, unknown> = { ':ct': CONTACT_SK_PREFIX, ':at': write.at };
  const sets = ['#updatedAt = :at'];
  const conditions = ['begins_with(#sk, :ct)'];
  for (const [field, isSet] of Object.entries(plan.expectSet)) {
    names[`#${field}`] = field;
    conditions.push(isSet ? `attribute_exists(#${field})` : `attribute_not_exists(#${field})`);
  }
  // A field the pass fills: not cleared in the control room since the plan looked (its value could be the cleared one).
  for (const [field, clearedAt] of Object.entries(plan.expectCleared)) {
    names['#cleared'] = 'cleared';
    names[`#${field}`] = field;
    if (clearedAt === null) {
      conditions.push(`attribute_not_exists(#cleared.#${field})`);
    } else {
      names['#clearedAt'] = 'at';
      values[`:clearedAt_${field}`] = clearedAt;
      conditions.push(`#cleared.#${field}.#clearedAt = :clearedAt_${field}`);
    }
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
  if (plan.billed) {
    // Marks a billed pass: bulk runs skip the contact from now on.
    names['#checked'] = 'enrichmentCheckedAt';
    sets.push('#checked = :at');
  }
  // The plan decided from the contact's enriched state: require it unchanged.
  conditions.push(contact.enriched === true ? '#enriched = :true' : 'attribute_not_exists(#enriched)');
  if (write.bulk) {
    names['#checked'] = 'enrichmentCheckedAt';
    conditions.push('attribute_not_exists(#checked)');
  }
  return {
    TableName: tableName,
    Key: { factoryId: write.factoryId, sk: contact.id },
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  };
}

/** EnrichmentStore on the contacts table (usage and passId items live in each factory's partition). */
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
    const items: NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']> = [
      { Update: { ...update, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
      {
        Update: {
          TableName: this.tableName,
          Key: { factoryId: write.factoryId, sk: usageSortKey(write.period, shard) },
          UpdateExpression: 'ADD #billed :one SET #period = :period, #lastPassAt = :at',
          ExpressionAttributeNames: { '#billed': 'billedPasses', '#period': 'period', '#lastPassAt': 'lastPassAt' },
          ExpressionAttributeValues: { ':one': 1, ':period': write.period, ':at': write.at },
        },
      },
    ];
    if (write.passId !== undefined) {
      // An Update, not a Put: a transaction needs the IAM action of each item's operation, and the role has UpdateItem only.
      items.push({
        Update: {
          TableName: this.tableName,
          Key: { factoryId: write.factoryId, sk: passSortKey(write.contact.id, write.passId) },
          UpdateExpression: 'SET #passId = :passId, #contactId = :contactId, #at = :at, #expiresAt = :expiresAt',
          ConditionExpression: 'attribute_not_exists(#sk)',
          ExpressionAttributeNames: { '#sk': 'sk', '#passId': 'passId', '#contactId': 'contactId', '#at': 'at', '#expiresAt': 'expiresAt' },
          ExpressionAttributeValues: {
            ':passId': write.passId,
            ':contactId': write.contact.id,
            ':at': write.at,
            ':expiresAt': Math.floor(Date.parse(write.at) / 1000) + PASS_ID_TTL_SECONDS,
          },
        },
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
        return { outcome: 'conflict', reason: 'changed', current: returnedContact(reason.Item) };
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
      return { outcome: 'conflict', reason: 'changed', current: returnedContact(error.Item) };
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

  /** Billed passes per period (month), newest last: the shards of each period added up. */
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
