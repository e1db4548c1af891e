import { randomBytes } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { storageCall } from '../errors';
import { Expression } from '../expression';
import { KEYS_KEY } from '../schema';

/**
 * One of the service's secrets in the keys table (the person secret, the
 * suppression secret: lambda/infrastructure/store/schema.ts names their items): one item,
 * made by the first container to ask with one UpdateItem that keeps a secret
 * already there (`if_not_exists`) and returns the one stored, as the visitor
 * salts are (./dynamo-visitor-salts.ts). Read once per container; a failed
 * read is not kept. It never expires: a new secret would lose every key it made.
 */
export class DynamoServiceSecret {
  private cached?: Promise<Uint8Array>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    /** The item's key in the keys table. */
    private readonly item: string,
    /** What the call is, in a storage error's message. */
    private readonly label: string,
  ) {}

  secret(): Promise<Uint8Array> {
    if (!this.cached) {
      const reading = this.read();
      reading.catch(() => {
        if (this.cached === reading) this.cached = undefined;
      });
      this.cached = reading;
    }
    return this.cached;
  }

  private async read(): Promise<Uint8Array> {
    const update = new Expression().setOnce('secret', randomBytes(32));
    const result = await storageCall(`UpdateItem (${this.label})`, () =>
      this.doc.send(
        new UpdateCommand({ TableName: this.tableName, Key: { [KEYS_KEY.partitionKey]: this.item }, ...update.forUpdate(), ReturnValues: 'ALL_NEW' }),
      ),
    );
    const secret = result.Attributes?.secret;
    if (!(secret instanceof Uint8Array) || secret.length < 16) throw new Error(`the ${this.label} is not a byte string`);
    return secret;
  }
}
