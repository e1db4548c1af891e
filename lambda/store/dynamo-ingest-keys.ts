import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { CallLog } from '../domain/ports';
import type { ExposureMark, IngestKeyAuthorizer, IngestKeyDecision, PublishableKey } from '../ingest/ports';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from './errors';
import { Expression } from './expression';
import type { KeyItem } from './key-item';
import { notRepeated } from './request-token';
import { KEYS_KEY } from './schema';
import { SeenKeys } from './seen-keys';

const publishableKeyOf = (item: KeyItem): PublishableKey => ({ factoryId: item.factoryId, keyId: item.keyId, origins: item.origins ?? [] });

/**
 * The ingest API's key calls on the keys table:
 * - a publishable key: the same one conditional UpdateItem as the contacts
 *   API's secret keys (countKeyRequest: active, of type publishable, per-key
 *   GCRA limit), whose answer also carries the key's origins;
 * - a secret key seen here: one conditional UpdateItem that records the
 *   sighting on its item (first and last time, count), only if it exists and
 *   is a secret key: an unknown key creates nothing.
 * Keys allowed in this container are remembered (tenant, key id, origins),
 * as the contacts API remembers its callers, for the per-address limiter's
 * call to run beside the key call.
 */
export class DynamoIngestKeys implements IngestKeyAuthorizer {
  private readonly keys: SeenKeys<PublishableKey>;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {
    this.keys = new SeenKeys(doc, tableName, 'publishable', publishableKeyOf);
  }

  authorize(keyHash: string, nowMs: number, log?: CallLog): Promise<IngestKeyDecision> {
    return this.keys.count(keyHash, nowMs, log);
  }

  async markExposed(keyHash: string, nowMs: number, log?: CallLog): Promise<ExposureMark> {
    const request = randomUUID();
    const expression = new Expression();
    const at = expression.value(new Date(nowMs).toISOString());
    const token = expression.value(request);
    expression
      .setOnce('exposedFirstAt', at)
      .set('exposedLastAt', at)
      .set('exposedLastRequest', token)
      .add('exposedCount', 1)
      .when(expression.exists(KEYS_KEY.partitionKey), expression.is('keyType', '=', 'secret'), notRepeated(expression, 'exposedLastRequest', token));
    const command = new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      ...expression.forUpdate(),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
    let item: KeyItem;
    try {
      item = (await storageCall('UpdateItem (mark key exposed)', () => this.doc.send(command), log)).Attributes as KeyItem;
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const old = itemOfFailure<KeyItem>(error);
      // Our own earlier attempt landed (its answer was lost): counted once.
      if (old?.exposedLastRequest !== request) return { marked: false };
      item = old;
    }
    return { marked: true, keyId: item.keyId, factoryId: item.factoryId, count: item.exposedCount ?? 1 };
  }

  knownKey(keyHash: string): PublishableKey | undefined {
    return this.keys.known(keyHash);
  }
}
