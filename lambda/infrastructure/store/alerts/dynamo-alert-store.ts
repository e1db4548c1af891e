import { GetCommand, PutCommand, QueryCommand, TransactWriteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { AlertType } from '../../../alerts/alert';
import {
  DESTINATIONS_MAX,
  DestinationExistsError,
  type AlertStore,
  type AttemptEnd,
  type Delivery,
  type DeliveryRef,
  type Destination,
  type Disabled,
  type LogPositions,
} from '../../../alerts/ports';
import { readLog } from '../../../alerts/delivery-log';
import { storedSettingsOf, type AlertSettings, type StoredSettings } from '../../../alerts/settings';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression, Operand, QueryExpression, type Condition } from '../expression';

/**
 * Alerts in their table (layout in ../schema.ts): a factory's settings and
 * destinations share its partition (`factory#<fac>`, read together, written
 * rarely); each alert and each destination's deliveries have partitions of
 * their own, so no item is written for a whole factory per alert, and a
 * delivery's attempts touch only its own item. The settings item also
 * counts the destinations, so the limit holds under concurrent adds.
 */
const factoryPk = (factoryId: string) => `factory#${factoryId}`;
const SETTINGS_SK = 'settings';
const destinationSk = (destinationId: string) => `dest#${destinationId}`;
const alertPk = (factoryId: string, alertId: string) => `alert#${factoryId}#${alertId}`;
const ALERT_SK = 'alert';
const deliveryPk = (factoryId: string, destinationId: string) => `delivery#${factoryId}#${destinationId}`;
/** A release's unhealthy spell: its own partition, written only when the release's health changes. */
const spellPk = (factoryId: string, spellKey: string) => `spell#${factoryId}#${spellKey}`;
const SPELL_SK = 'spell';

const numberOr = (value: unknown): number | undefined => (typeof value === 'number' ? value : undefined);

function withoutKeys<T>(item: Record<string, unknown>): T {
  const { pk: _pk, sk: _sk, ...rest } = item;
  return rest as T;
}

const toDestination = (item: Record<string, unknown>): Destination => withoutKeys<Destination>(item);
const toDelivery = (item: Record<string, unknown>): Delivery => {
  const { pk: _pk, ...rest } = item;
  return rest as unknown as Delivery;
};

export class DynamoAlertStore implements AlertStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async settings(factoryId: string): Promise<StoredSettings> {
    const found = await storageCall('GetItem (alert settings)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: factoryPk(factoryId), sk: SETTINGS_SK } })),
    );
    return storedSettingsOf(found.Item);
  }

  async saveSettings(factoryId: string, change: Partial<AlertSettings>, at: string, by: string): Promise<StoredSettings> {
    const update = new Expression().set('updatedAt', at).set('updatedBy', by);
    for (const [name, value] of Object.entries(change)) if (value !== undefined) update.set(name, value);
    const result = await storageCall('UpdateItem (alert settings)', () =>
      this.doc.send(
        new UpdateCommand({ TableName: this.tableName, Key: { pk: factoryPk(factoryId), sk: SETTINGS_SK }, ...update.forUpdate(), ReturnValues: 'ALL_NEW' }),
      ),
    );
    return storedSettingsOf(result.Attributes);
  }

  async addDestination(destination: Destination): Promise<'added' | 'full'> {
    const count = new Expression().add('destinationCount', 1);
    count.when(count.or(count.notExists('destinationCount'), count.is('destinationCount', '<', DESTINATIONS_MAX)));
    const put = new Expression();
    put.when(put.notExists('pk'));
    try {
      await storageCall('TransactWriteItems (add destination)', () =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Update: { TableName: this.tableName, Key: { pk: factoryPk(destination.factoryId), sk: SETTINGS_SK }, ...count.forUpdate() } },
              {
                Put: {
                  TableName: this.tableName,
                  Item: { pk: factoryPk(destination.factoryId), sk: destinationSk(destination.destinationId), ...destination },
                  ...put.forCondition(),
                },
              },
            ],
          }),
        ),
      );
      return 'added';
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return 'full';
      if (reasons?.[1]?.Code === 'ConditionalCheckFailed') throw new DestinationExistsError(destination.destinationId);
      throw error;
    }
  }

  async destinations(factoryId: string): Promise<Destination[]> {
    const query = new QueryExpression();
    query.key(query.is('pk', '=', factoryPk(factoryId)), query.beginsWith('sk', 'dest#'));
    const found: Destination[] = [];
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await storageCall('Query (destinations)', () =>
        this.doc.send(new QueryCommand({ TableName: this.tableName, ...query.forQuery(), ConsistentRead: true, ExclusiveStartKey: cursor })),
      );
      found.push(...(page.Items ?? []).map(toDestination));
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    return found.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  }

  async destination(factoryId: string, destinationId: string): Promise<Destination | undefined> {
    const found = await storageCall('GetItem (destination)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: factoryPk(factoryId), sk: destinationSk(destinationId) }, ConsistentRead: true })),
    );
    return found.Item ? toDestination(found.Item) : undefined;
  }

  /** The item is read for the answer only; the delete and the count's decrement are one transaction, conditional on the item. */
  async removeDestination(factoryId: string, destinationId: string): Promise<Destination | undefined> {
    const existing = await this.destination(factoryId, destinationId);
    if (!existing) return undefined;
    const remove = new Expression();
    remove.when(remove.exists('pk'));
    const count = new Expression().add('destinationCount', -1);
    try {
      await storageCall('TransactWriteItems (remove destination)', () =>
        this.doc.send(
          new TransactWriteCommand({
            TransactItems: [
              { Delete: { TableName: this.tableName, Key: { pk: factoryPk(factoryId), sk: destinationSk(destinationId) }, ...remove.forCondition() } },
              { Update: { TableName: this.tableName, Key: { pk: factoryPk(factoryId), sk: SETTINGS_SK }, ...count.forUpdate() } },
            ],
          }),
        ),
      );
      return existing;
    } catch (error) {
      const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
      if (reasons?.[0]?.Code === 'ConditionalCheckFailed') return undefined;
      throw error;
    }
  }

  /** One conditional UpdateItem on an existing destination, answering the item after it. */
  private async updateDestination(operation: string, factoryId: string, destinationId: string, update: Expression): Promise<Destination | undefined> {
    update.when(update.exists('pk'));
    try {
      const result = await storageCall(operation, () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: factoryPk(factoryId), sk: destinationSk(destinationId) },
            ...update.forUpdate(),
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return result.Attributes ? toDestination(result.Attributes) : undefined;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  rotateSecret(factoryId: string, destinationId: string, secret: string, at: string, previousUntil: string): Promise<Destination | undefined> {
    const update = new Expression();
    // The right-hand side reads the item before the update: the old secret becomes the previous one.
    update.set('previousSecret', update.attribute('secret')).set('previousSecretUntil', previousUntil).set('secret', secret).set('secretRotatedAt', at);
    return this.updateDestination('UpdateItem (rotate secret)', factoryId, destinationId, update);
  }

  setDisabled(factoryId: string, destinationId: string, disabled: Disabled | undefined): Promise<Destination | undefined> {
    const update = new Expression();
    if (disabled) update.set('disabled', disabled);
    else update.remove('disabled').remove('failingSince');
    return this.updateDestination(disabled ? 'UpdateItem (disable destination)' : 'UpdateItem (enable destination)', factoryId, destinationId, update);
  }

  async noteFailure(factoryId: string, destinationId: string, at: string): Promise<void> {
    await this.updateDestination('UpdateItem (destination failing)', factoryId, destinationId, new Expression().setOnce('failingSince', at));
  }

  async noteSuccess(factoryId: string, destinationId: string, at: string): Promise<void> {
    await this.updateDestination(
      'UpdateItem (destination delivered)',
      factoryId,
      destinationId,
      new Expression().set('lastSuccessAt', at).remove('failingSince'),
    );
  }

  async disableIfFailingSince(factoryId: string, destinationId: string, since: string, disabled: Disabled): Promise<boolean> {
    const update = new Expression().set('disabled', disabled);
    update.when(
      update.notExists('disabled'),
      update.is('failingSince', '<=', since),
      update.or(update.notExists('lastSuccessAt'), update.is('lastSuccessAt', '<', since)),
    );
    return (await this.updateDestination('UpdateItem (disable failing destination)', factoryId, destinationId, update)) !== undefined;
  }

  async recordAlert(alert: {
    factoryId: string;
    alertId: string;
    type: AlertType;
    issueId?: string;
    occurredAt: string;
    at: string;
    expiresAt: number;
  }): Promise<{ created: boolean; fannedOut: boolean }> {
    const put = new Expression();
    put.when(put.notExists('pk'));
    const { at, ...fields } = alert;
    try {
      await storageCall('PutItem (alert)', () =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { pk: alertPk(alert.factoryId, alert.alertId), sk: ALERT_SK, ...fields, createdAt: at },
            ...put.forCondition(),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { created: true, fannedOut: false };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const stored = itemOfFailure<{ fannedOutAt?: string }>(error);
      return { created: false, fannedOut: stored?.fannedOutAt !== undefined };
    }
  }

  async markFannedOut(factoryId: string, alertId: string, at: string): Promise<void> {
    const update = new Expression().setOnce('fannedOutAt', at);
    await storageCall('UpdateItem (alert fanned out)', () =>
      this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: alertPk(factoryId, alertId), sk: ALERT_SK }, ...update.forUpdate() })),
    );
  }

  async openSpell(factoryId: string, spellKey: string, hour: number, expiresAt: number): Promise<void> {
    const update = new Expression().setOnce('since', hour).set('expiresAt', expiresAt);
    await storageCall('UpdateItem (release spell opened)', () =>
      this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: spellPk(factoryId, spellKey), sk: SPELL_SK }, ...update.forUpdate() })),
    );
  }

  async closeSpell(factoryId: string, spellKey: string, hour: number): Promise<number | undefined> {
    const update = new Expression();
    update.set('closing', update.attribute('since')).remove('since');
    update.when(update.exists('since'), update.is('since', '<=', hour), update.notExists('closing'));
    try {
      const result = await storageCall('UpdateItem (release spell closed)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: spellPk(factoryId, spellKey), sk: SPELL_SK },
            ...update.forUpdate(),
            ReturnValues: 'ALL_NEW',
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return numberOr(result.Attributes?.closing);
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      // Nothing open (or not yet at this hour); or a recovery written but not yet sent: send it now.
      return numberOr(itemOfFailure<{ closing?: unknown }>(error)?.closing);
    }
  }

  async spellClosed(factoryId: string, spellKey: string, spellHour: number): Promise<void> {
    const update = new Expression().remove('closing');
    update.when(update.is('closing', '=', spellHour));
    try {
      await storageCall('UpdateItem (release spell recovered)', () =>
        this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { pk: spellPk(factoryId, spellKey), sk: SPELL_SK }, ...update.forUpdate() })),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async createDelivery(delivery: Delivery): Promise<{ created: true } | { created: false; existing: Delivery }> {
    const put = new Expression();
    put.when(put.notExists('pk'));
    try {
      await storageCall('PutItem (delivery)', () =>
        this.doc.send(
          new PutCommand({
            TableName: this.tableName,
            Item: { ...delivery, pk: deliveryPk(delivery.factoryId, delivery.destinationId) },
            ...put.forCondition(),
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          }),
        ),
      );
      return { created: true };
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      const stored = itemOfFailure(error);
      if (!stored) throw error;
      return { created: false, existing: toDelivery(stored) };
    }
  }

  async delivery(ref: DeliveryRef): Promise<Delivery | undefined> {
    const found = await storageCall('GetItem (delivery)', () =>
      this.doc.send(new GetCommand({ TableName: this.tableName, Key: { pk: deliveryPk(ref.factoryId, ref.destinationId), sk: ref.sk }, ConsistentRead: true })),
    );
    return found.Item ? toDelivery(found.Item) : undefined;
  }

  async claimAttempt(ref: DeliveryRef, attempt: number, at: string, leaseUntil: string): Promise<Delivery | undefined> {
    const update = new Expression()
      .set('attempts', attempt)
      .set('leaseUntil', leaseUntil)
      .set('lastAttemptAt', at)
      .setOnce('firstAttemptAt', at)
      .remove('nextAttemptAt');
    const takenOver = update.is('leaseUntil', '<', at);
    update.when(
      update.is('status', '=', 'pending'),
      update.or(update.is('attempts', '=', attempt - 1), `${update.is('attempts', '=', attempt)} AND ${takenOver}` as Condition),
    );
    try {
      const result = await storageCall('UpdateItem (claim attempt)', () =>
        this.doc.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: deliveryPk(ref.factoryId, ref.destinationId), sk: ref.sk },
            ...update.forUpdate(),
            ReturnValues: 'ALL_NEW',
          }),
        ),
      );
      return result.Attributes ? toDelivery(result.Attributes) : undefined;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  async finishAttempt(ref: DeliveryRef, attempt: number, end: AttemptEnd): Promise<void> {
    const expression = new Expression().set('status', end.status).remove('leaseUntil');
    const history = expression.attribute('history');
    // The attempt's record goes at the end of the list the item holds (an empty one before the first).
    expression.set('history', new Operand(`list_append(if_not_exists(${history.text}, ${expression.value([]).text}), ${expression.value([end.record]).text})`));
    if (end.status === 'pending') expression.set('nextAttemptAt', end.nextAttemptAt);
    if (end.status === 'failed') expression.set('reason', end.reason);
    expression.when(expression.is('attempts', '=', attempt), expression.is('status', '=', 'pending'));
    try {
      await storageCall('UpdateItem (attempt done)', () =>
        this.doc.send(
          new UpdateCommand({ TableName: this.tableName, Key: { pk: deliveryPk(ref.factoryId, ref.destinationId), sk: ref.sk }, ...expression.forUpdate() }),
        ),
      );
    } catch (error) {
      // Another run took this attempt over (our lease ran out): its record stands.
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async skipDelivery(ref: DeliveryRef, reason: string): Promise<void> {
    const update = new Expression().set('status', 'skipped').set('reason', reason).remove('nextAttemptAt');
    update.when(update.is('status', '=', 'pending'));
    try {
      await storageCall('UpdateItem (skip delivery)', () =>
        this.doc.send(
          new UpdateCommand({ TableName: this.tableName, Key: { pk: deliveryPk(ref.factoryId, ref.destinationId), sk: ref.sk }, ...update.forUpdate() }),
        ),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }

  async deliveries(factoryId: string, destinationId: string, query: { limit: number; before?: string }): Promise<{ deliveries: Delivery[]; more: boolean }> {
    const expression = new QueryExpression();
    const partition = expression.is('pk', '=', deliveryPk(factoryId, destinationId));
    if (query.before === undefined) expression.key(partition);
    else expression.key(partition, expression.is('sk', '<', query.before));
    const page = await storageCall('Query (deliveries)', () =>
      this.doc.send(new QueryCommand({ TableName: this.tableName, ...expression.forQuery(), ScanIndexForward: false, Limit: query.limit + 1 })),
    );
    const items = (page.Items ?? []).map(toDelivery);
    return { deliveries: items.slice(0, query.limit), more: items.length > query.limit };
  }

  /** One Query per destination still going, at once, merged newest first. */
  deliveryLog(
    factoryId: string,
    destinationIds: readonly string[],
    query: { limit: number; after?: LogPositions },
  ): Promise<{ deliveries: Delivery[]; next?: LogPositions }> {
    return readLog(destinationIds, query, (destinationId, before) =>
      this.deliveries(factoryId, destinationId, { limit: query.limit, ...(before === undefined ? {} : { before }) }),
    );
  }
}
