import { randomBytes } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CallLog } from '../../domain/ports';
import type { PersonSecret } from '../../domain/person-key';
import { storageCall } from '../errors';
import { Expression } from '../expression';
import { KEYS_KEY, PERSON_SECRET_KEY } from '../schema';

/**
 * The person secret (lambda/domain/person-key.ts) in the keys table, apart
 * from the reports that carry the keys it makes: one item, made by the first
 * container to ask with one UpdateItem that keeps a secret already there
 * (`if_not_exists`) and returns the one stored, as the visitor salts are
 * (./dynamo-visitor-salts.ts). Read once per container; a failed read is
 * not kept. It never expires: a new secret would lose every report's key.
 */
export class DynamoPersonSecret implements PersonSecret {
  private cached?: Promise<Uint8Array>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  secret(log?: CallLog): Promise<Uint8Array> {
    if (!this.cached) {
      const reading = this.read(log);
      reading.catch(() => {
        if (this.cached === reading) this.cached = undefined;
      });
      this.cached = reading;
    }
    return this.cached;
  }

  private async read(log?: CallLog): Promise<Uint8Array> {
    const update = new Expression().setOnce('secret', randomBytes(32));
    const result = await storageCall(
      'UpdateItem (person secret)',
      () => this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { [KEYS_KEY.partitionKey]: PERSON_SECRET_KEY }, ...update.forUpdate(), ReturnValues: 'ALL_NEW' })),
      log,
    );
    const secret = result.Attributes?.secret;
    if (!(secret instanceof Uint8Array) || secret.length < 16) throw new Error('the person secret is not a byte string');
    return secret;
  }
}
