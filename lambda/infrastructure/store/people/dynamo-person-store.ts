import { DeleteCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Page, PersonReportKind, PersonReportRef, PersonStore, VendorRecords } from '../../../control/ports';
import { InvalidCursorError } from '../../../kernel/errors';
import type { PersonKeys } from '../../../kernel/person-key';
import { batchGet } from '../batch-get';
import { isConditionalCheckFailed, storageCall } from '../errors';
import { Expression, QueryExpression } from '../expression';
import { reportOf } from '../reports/report-reader';
import {
  CONTACT_SK_PREFIX,
  CONTACTS_KEY,
  eventKey,
  featureRequestKey,
  feedbackKey,
  feedbackLinkKey,
  passSortKey,
  PERSON_ATTRIBUTE,
  REPORTS_BY_PERSON,
  REPORTS_KEY,
} from '../schema';

interface Position {
  pk: string;
  receivedAt: string;
}

/** Where a page of a person's reports ended: bound to the factory and the person, opaque to callers (base64url JSON). */
function encodePosition(factoryId: string, person: string, position: Position): string {
  return Buffer.from(JSON.stringify({ f: factoryId, p: person, pk: position.pk, r: position.receivedAt })).toString('base64url');
}

function decodePosition(cursor: string, factoryId: string, person: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const { f, p, pk, r } = (parsed ?? {}) as Record<string, unknown>;
  if (typeof pk !== 'string' || typeof r !== 'string' || f !== factoryId || p !== person) {
    throw new InvalidCursorError(
      "cursor is not one this service returned for this person's reports: start without a cursor, or pass the last one back as it was",
    );
  }
  return { pk, receivedAt: r };
}

/** A report's kind and id from its key (`event#<factory>#<id>`, `fr#<factory>#<id>`); undefined for another factory's. */
function refOf(factoryId: string, pk: string, receivedAt: string): PersonReportRef | undefined {
  for (const [prefix, kind] of [
    [`event#${factoryId}#`, 'events'],
    [`fr#${factoryId}#`, 'feature-requests'],
    [feedbackKey(factoryId, ''), 'feedback'],
  ] as const) {
    if (pk.startsWith(prefix)) return { kind, id: pk.slice(prefix.length), receivedAt };
  }
  return undefined;
}

const KEY_OF: Record<PersonReportKind, (factoryId: string, id: string) => string> = {
  events: eventKey,
  'feature-requests': featureRequestKey,
  feedback: feedbackKey,
};
const keyOf = (factoryId: string, ref: PersonReportRef): string => KEY_OF[ref.kind](factoryId, ref.id);
const KIND_LABEL: Record<PersonReportKind, string> = { events: 'event', 'feature-requests': 'feature-request', feedback: 'feedback' };

/**
 * A person's data on DynamoDB: reports through the byPerson index of the
 * reports table (a Query of one person's partition, newest first; never a
 * scan), the reports themselves by BatchGetItem, and the erasure's deletes:
 * the contact (a DeleteItem conditional on the `updatedAt` read), its pass
 * markers, and each report's reporter (an UpdateItem conditional on the
 * person key still there). The vendor's record, in the reference table, is
 * `vendor`'s (../reference/dynamo-vendor-records.ts).
 */
export class DynamoPersonStore implements PersonStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: { contacts: string; reports: string },
    private readonly keys: PersonKeys,
    readonly vendor: VendorRecords,
  ) {}

  personKey(factoryId: string, email: string): Promise<string> {
    return this.keys.keyOf(factoryId, email);
  }

  async reportsOf(factoryId: string, person: string, cursor: string | undefined, limit: number): Promise<Page<PersonReportRef>> {
    const after = cursor === undefined ? undefined : decodePosition(cursor, factoryId, person);
    const query = new QueryExpression();
    query.key(query.is(REPORTS_BY_PERSON.partitionKey, '=', person));
    const result = await storageCall('Query (byPerson)', () =>
      this.doc.send(
        new QueryCommand({
          TableName: this.tables.reports,
          IndexName: REPORTS_BY_PERSON.indexName,
          ...query.forQuery(),
          ScanIndexForward: false,
          Limit: limit,
          ...(after
            ? {
                ExclusiveStartKey: {
                  [REPORTS_KEY.partitionKey]: after.pk,
                  [REPORTS_BY_PERSON.partitionKey]: person,
                  [REPORTS_BY_PERSON.sortKey]: after.receivedAt,
                },
              }
            : {}),
        }),
      ),
    );
    const entries = (result.Items ?? []).map((item) => ({ pk: String(item.pk), receivedAt: String(item.receivedAt) }));
    // The key carries the factory too: a person key of another factory never matches, this only guards the reading.
    const items = entries.map((entry) => refOf(factoryId, entry.pk, entry.receivedAt)).filter((ref): ref is PersonReportRef => ref !== undefined);
    const last = entries[entries.length - 1];
    return { items, ...(result.LastEvaluatedKey && last ? { next: encodePosition(factoryId, person, last) } : {}) };
  }

  async readReports(factoryId: string, refs: readonly PersonReportRef[], nowMs: number): Promise<Record<string, unknown>[]> {
    const keys = refs.map((ref) => ({ [REPORTS_KEY.partitionKey]: keyOf(factoryId, ref) }));
    const items = await batchGet(this.doc, this.tables.reports, keys, { operation: "BatchGetItem (a person's reports)" });
    const byKey = new Map(items.map((item) => [String(item.pk), item]));
    const now = Math.floor(nowMs / 1000);
    return refs.flatMap((ref) => {
      const item = byKey.get(keyOf(factoryId, ref));
      if (!item || (typeof item.expiresAt === 'number' && item.expiresAt <= now)) return [];
      return [{ kind: KIND_LABEL[ref.kind], ...reportOf(item) }];
    });
  }

  async forgetReporter(factoryId: string, ref: PersonReportRef, person: string): Promise<boolean> {
    if (ref.kind === 'feedback') return this.deleteFeedback(factoryId, ref.id, person);
    const forget = new Expression().remove('reporter').remove(PERSON_ATTRIBUTE);
    forget.when(forget.is(PERSON_ATTRIBUTE, '=', person));
    try {
      await storageCall('UpdateItem (forget a reporter)', () =>
        this.doc.send(new UpdateCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: keyOf(factoryId, ref) }, ...forget.forUpdate() })),
      );
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false; // forgotten already, or expired and gone
      throw error;
    }
  }

  /** Feedback is the person's own words: deleted whole while it still carries their key, then its link to its issue. */
  private async deleteFeedback(factoryId: string, feedbackId: string, person: string): Promise<boolean> {
    const condition = new Expression();
    condition.when(condition.is(PERSON_ATTRIBUTE, '=', person));
    let deleted = true;
    try {
      await storageCall('DeleteItem (feedback erasure)', () =>
        this.doc.send(
          new DeleteCommand({
            TableName: this.tables.reports,
            Key: { [REPORTS_KEY.partitionKey]: feedbackKey(factoryId, feedbackId) },
            ...condition.forCondition(),
          }),
        ),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      deleted = false; // deleted already, or expired and gone
    }
    // The link holds no words and no email, only which issue: deleted too, even when the feedback went before (a retry).
    await storageCall('DeleteItem (feedback link)', () =>
      this.doc.send(new DeleteCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: feedbackLinkKey(factoryId, feedbackId) } })),
    );
    return deleted;
  }

  async deleteContact(factoryId: string, contactId: string, seenUpdatedAt: string): Promise<'deleted' | 'conflict'> {
    if (!contactId.startsWith(CONTACT_SK_PREFIX)) return 'conflict';
    const condition = new Expression();
    condition.when(condition.is('updatedAt', '=', seenUpdatedAt));
    try {
      await storageCall('DeleteItem (contact erasure)', () =>
        this.doc.send(
          new DeleteCommand({
            TableName: this.tables.contacts,
            Key: { [CONTACTS_KEY.partitionKey]: factoryId, [CONTACTS_KEY.sortKey]: contactId },
            ...condition.forCondition(),
          }),
        ),
      );
      return 'deleted';
    } catch (error) {
      if (isConditionalCheckFailed(error)) return 'conflict';
      throw error;
    }
  }

  async deletePassMarkers(factoryId: string, contactId: string, passIds: readonly string[]): Promise<void> {
    await Promise.all(
      passIds.map((passId) =>
        storageCall('DeleteItem (pass marker)', () =>
          this.doc.send(
            new DeleteCommand({
              TableName: this.tables.contacts,
              Key: { [CONTACTS_KEY.partitionKey]: factoryId, [CONTACTS_KEY.sortKey]: passSortKey(contactId, passId) },
            }),
          ),
        ),
      ),
    );
  }
}
