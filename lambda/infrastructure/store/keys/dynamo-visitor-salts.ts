import { randomBytes } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { VisitorSalts } from '../../../ingest/ports';
import { storageCall } from '../errors';
import { Expression } from '../expression';
import { EXPIRES_AT, KEYS_KEY, visitorSaltKey } from '../schema';

/** A salt is kept until two days after its day began: a request at midnight may still use yesterday's; then it expires. */
const SALT_KEEP_SECONDS = 2 * 86_400;

/**
 * The day's salt of visitor hashes (docs/report-issues.md#visitors-affected)
 * in the keys table, never in the reports table beside the hashes it made:
 * one item per UTC day (`salt#<day>`), made by the first container to ask,
 * with one UpdateItem that keeps a salt already there (`if_not_exists`) and
 * returns the one stored, so every container of the day uses the same. Read
 * once per container per day; DynamoDB's time to live removes it two days
 * after its day began (a salt past that is never used again: a new day has
 * a new item).
 */
export class DynamoVisitorSalts implements VisitorSalts {
  private readonly salts = new Map<string, Promise<Uint8Array>>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  saltFor(day: string, _nowMs: number): Promise<Uint8Array> {
    let salt = this.salts.get(day);
    if (!salt) {
      salt = this.read(day);
      // A failed read is not kept: the next request asks again.
      salt.catch(() => this.salts.delete(day));
      // Only the newest days are kept in memory.
      for (const old of [...this.salts.keys()].sort().slice(0, -1)) if (old < day) this.salts.delete(old);
      this.salts.set(day, salt);
    }
    return salt;
  }

  private async read(day: string): Promise<Uint8Array> {
    const update = new Expression().setOnce('salt', randomBytes(32)).setOnce(EXPIRES_AT, Math.floor(Date.parse(`${day}T00:00:00Z`) / 1000) + SALT_KEEP_SECONDS);
    const result = await storageCall('UpdateItem (visitor salt)', () =>
      this.doc.send(
        new UpdateCommand({ TableName: this.tableName, Key: { [KEYS_KEY.partitionKey]: visitorSaltKey(day) }, ...update.forUpdate(), ReturnValues: 'ALL_NEW' }),
      ),
    );
    const salt = result.Attributes?.salt;
    if (!(salt instanceof Uint8Array) || salt.length < 16) throw new Error(`the visitor salt of ${day} is not a byte string`);
    return salt;
  }
}
