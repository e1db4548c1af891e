import type { CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { SuppressionKeys } from '../../../contacts/domain/vendor-suppression';
import type { ReferenceRecord } from '../../../contacts/enrichment/sources/reference-dataset';
import { Expression } from '../expression';
import { REFERENCE_KEY } from '../schema';

/** Records per transaction: each is two of its 100 actions (the suppression's check, the record's Put). */
export const RECORDS_PER_WRITE = 50;
/** Attempts of one transaction cancelled by load or a racing write, before giving up. */
const MAX_BUSY_ATTEMPTS = 10;

export interface ReferenceWrite {
  /** Records written. */
  written: number;
  /** The emails left out: suppressed, their person erased (docs/privacy.md#the-vendors-record). */
  suppressed: ReferenceRecord['email'][];
}

export type Pause = (ms: number) => Promise<void>;
const sleep: Pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Every writer of the vendor's records (`enrich -- load-dataset`, the demo
 * data) writes through this: up to RECORDS_PER_WRITE records in one
 * TransactWriteItems, each record's Put beside a ConditionCheck that its
 * suppression item (lambda/contacts/domain/vendor-suppression.ts) is absent, so a
 * person erased is never added back, even by a load that read its file
 * before the erasure. A transaction refused for suppressed people is sent
 * again without them; one cancelled by a racing write or by throttling is
 * sent again after a pause. A transaction, not a batch write: BatchWriteItem
 * takes no condition, and a Put's condition sees only its own item.
 */
export class ReferenceWriter {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly suppressions: SuppressionKeys,
    private readonly pause: Pause = sleep,
  ) {}

  async write(records: readonly ReferenceRecord[]): Promise<ReferenceWrite> {
    if (records.length === 0) return { written: 0, suppressed: [] };
    if (records.length > RECORDS_PER_WRITE) throw new Error(`at most ${RECORDS_PER_WRITE} records in one write, got ${records.length}`);
    const keys = await Promise.all(records.map((record) => this.suppressions.keyOf(record.email)));
    let pending = records.map((record, index) => ({ record, suppression: keys[index] as string }));
    const suppressed: string[] = [];
    for (let busy = 0; pending.length > 0; ) {
      const reasons = await this.attempt(pending);
      if (reasons === undefined) return { written: pending.length, suppressed };
      const refused = new Set(pending.filter((_, index) => reasons[2 * index]?.Code === 'ConditionalCheckFailed').map((entry) => entry.record.email));
      const others = reasons.filter((reason) => reason.Code !== undefined && reason.Code !== 'None' && reason.Code !== 'ConditionalCheckFailed');
      if (others.some((reason) => reason.Code !== 'TransactionConflict' && reason.Code !== 'ThrottlingError')) {
        throw new Error(`the reference table refused a write: ${others.map((reason) => reason.Code).join(', ')}`);
      }
      if (refused.size === 0 && others.length === 0) throw new Error('the reference table cancelled a write without saying why');
      suppressed.push(...refused);
      pending = pending.filter((entry) => !refused.has(entry.record.email));
      if (others.length > 0) {
        busy += 1;
        if (busy >= MAX_BUSY_ATTEMPTS) throw new Error(`the reference table stayed busy for ${busy} attempts; try again later`);
        await this.pause(Math.min(2000, 50 * 2 ** busy));
      }
    }
    return { written: 0, suppressed };
  }

  /** One transaction: undefined once written, the cancellation's reasons (two per record) otherwise. */
  private async attempt(entries: readonly { record: ReferenceRecord; suppression: string }[]): Promise<CancellationReason[] | undefined> {
    const items = entries.flatMap(({ record, suppression }) => {
      const absent = new Expression();
      absent.when(absent.notExists(REFERENCE_KEY.partitionKey));
      return [
        { ConditionCheck: { TableName: this.tableName, Key: { [REFERENCE_KEY.partitionKey]: suppression }, ...absent.forCondition() } },
        { Put: { TableName: this.tableName, Item: { ...record } } },
      ];
    });
    try {
      await this.doc.send(new TransactWriteCommand({ TransactItems: items }));
      return undefined;
    } catch (error) {
      if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') throw error;
      return (error as Error & { CancellationReasons?: CancellationReason[] }).CancellationReasons ?? [];
    }
  }
}
