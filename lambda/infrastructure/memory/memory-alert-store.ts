import { readLog } from '../../alerts/delivery-log';
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
} from '../../alerts/ports';
import type { AlertType } from '../../alerts/alert';
import { storedSettingsOf, type AlertSettings, type StoredSettings } from '../../alerts/settings';

interface StoredAlert {
  created: boolean;
  fannedOutAt?: string;
}

/**
 * AlertStore in memory: the rules the DynamoDB adapter writes as conditions
 * (lambda/infrastructure/store/alerts/dynamo-alert-store.ts), stated plainly, one call at a
 * time: at most DESTINATIONS_MAX destinations, one alert per id, one
 * delivery per alert and destination, an attempt taken once (or after its
 * lease ran out), the log newest first.
 */
export class MemoryAlertStore implements AlertStore {
  /** Each factory's settings item as written: what was set, and by whom. */
  private readonly settingsByFactory = new Map<string, Record<string, unknown>>();
  /** Each release's unhealthy spell: the hour it began, or the one whose recovery is being sent. */
  private readonly spells = new Map<string, { since?: number; closing?: number }>();
  private readonly destinationsById = new Map<string, Destination>();
  private readonly alerts = new Map<string, StoredAlert>();
  private readonly deliveriesByRef = new Map<string, Delivery>();

  async settings(factoryId: string): Promise<StoredSettings> {
    return storedSettingsOf(this.settingsByFactory.get(factoryId));
  }

  async saveSettings(factoryId: string, change: Partial<AlertSettings>, at: string, by: string): Promise<StoredSettings> {
    const saved = { ...this.settingsByFactory.get(factoryId), ...change, updatedAt: at, updatedBy: by };
    this.settingsByFactory.set(factoryId, saved);
    return storedSettingsOf(saved);
  }

  async addDestination(destination: Destination): Promise<'added' | 'full'> {
    if ((await this.destinations(destination.factoryId)).length >= DESTINATIONS_MAX) return 'full';
    const key = destinationKey(destination.factoryId, destination.destinationId);
    if (this.destinationsById.has(key)) throw new DestinationExistsError(destination.destinationId);
    this.destinationsById.set(key, structuredClone(destination));
    return 'added';
  }

  async destinations(factoryId: string): Promise<Destination[]> {
    return [...this.destinationsById.values()]
      .filter((destination) => destination.factoryId === factoryId)
      .sort((a, b) => (a.createdAt === b.createdAt ? (a.destinationId < b.destinationId ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1))
      .map((destination) => structuredClone(destination));
  }

  async destination(factoryId: string, destinationId: string): Promise<Destination | undefined> {
    const found = this.destinationsById.get(destinationKey(factoryId, destinationId));
    return found && structuredClone(found);
  }

  async removeDestination(factoryId: string, destinationId: string): Promise<Destination | undefined> {
    const removed = await this.destination(factoryId, destinationId);
    this.destinationsById.delete(destinationKey(factoryId, destinationId));
    return removed;
  }

  rotateSecret(factoryId: string, destinationId: string, secret: string, at: string, previousUntil: string): Promise<Destination | undefined> {
    return this.changeDestination(factoryId, destinationId, (found) => ({
      ...found,
      previousSecret: found.secret,
      previousSecretUntil: previousUntil,
      secret,
      secretRotatedAt: at,
    }));
  }

  setDisabled(factoryId: string, destinationId: string, disabled: Disabled | undefined): Promise<Destination | undefined> {
    return this.changeDestination(factoryId, destinationId, (found) => {
      if (disabled) return { ...found, disabled };
      const { disabled: _disabled, failingSince: _failingSince, ...enabled } = found;
      return enabled;
    });
  }

  async noteFailure(factoryId: string, destinationId: string, at: string): Promise<void> {
    await this.changeDestination(factoryId, destinationId, (found) => ({ ...found, failingSince: found.failingSince ?? at }));
  }

  async noteSuccess(factoryId: string, destinationId: string, at: string): Promise<void> {
    await this.changeDestination(factoryId, destinationId, ({ failingSince: _failingSince, ...found }) => ({ ...found, lastSuccessAt: at }));
  }

  async disableIfFailingSince(factoryId: string, destinationId: string, since: string, disabled: Disabled): Promise<boolean> {
    const found = this.destinationsById.get(destinationKey(factoryId, destinationId));
    const failing = found?.failingSince !== undefined && found.failingSince <= since && (found.lastSuccessAt === undefined || found.lastSuccessAt < since);
    if (!found || found.disabled || !failing) return false;
    return (await this.changeDestination(factoryId, destinationId, (current) => ({ ...current, disabled }))) !== undefined;
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
    const key = `${alert.factoryId}#${alert.alertId}`;
    const stored = this.alerts.get(key);
    if (stored) return { created: false, fannedOut: stored.fannedOutAt !== undefined };
    this.alerts.set(key, { created: true });
    return { created: true, fannedOut: false };
  }

  async markFannedOut(factoryId: string, alertId: string, at: string): Promise<void> {
    // As an UpdateItem does: the item made if it was not there.
    const key = `${factoryId}#${alertId}`;
    const stored = this.alerts.get(key) ?? { created: false };
    this.alerts.set(key, { ...stored, fannedOutAt: stored.fannedOutAt ?? at });
  }

  async openSpell(factoryId: string, spellKey: string, hour: number): Promise<void> {
    const key = `${factoryId}#${spellKey}`;
    const spell = this.spells.get(key) ?? {};
    this.spells.set(key, { ...spell, since: spell.since ?? hour });
  }

  async closeSpell(factoryId: string, spellKey: string, hour: number): Promise<number | undefined> {
    const key = `${factoryId}#${spellKey}`;
    const spell = this.spells.get(key) ?? {};
    if (spell.since === undefined || spell.since > hour || spell.closing !== undefined) return spell.closing;
    this.spells.set(key, { closing: spell.since });
    return spell.since;
  }

  async spellClosed(factoryId: string, spellKey: string, spellHour: number): Promise<void> {
    const key = `${factoryId}#${spellKey}`;
    const spell = this.spells.get(key);
    if (spell?.closing === spellHour) this.spells.set(key, { ...(spell.since === undefined ? {} : { since: spell.since }) });
  }

  async createDelivery(delivery: Delivery): Promise<{ created: true } | { created: false; existing: Delivery }> {
    const existing = this.deliveriesByRef.get(deliveryKey(delivery));
    if (existing) return { created: false, existing: structuredClone(existing) };
    this.deliveriesByRef.set(deliveryKey(delivery), structuredClone(delivery));
    return { created: true };
  }

  async delivery(ref: DeliveryRef): Promise<Delivery | undefined> {
    const found = this.deliveriesByRef.get(deliveryKey(ref));
    return found && structuredClone(found);
  }

  async claimAttempt(ref: DeliveryRef, attempt: number, at: string, leaseUntil: string): Promise<Delivery | undefined> {
    const found = this.deliveriesByRef.get(deliveryKey(ref));
    const takenOver = found?.attempts === attempt && found.leaseUntil !== undefined && found.leaseUntil < at;
    if (found?.status !== 'pending' || !(found.attempts === attempt - 1 || takenOver)) return undefined;
    const { nextAttemptAt: _next, ...rest } = found;
    const claimed: Delivery = { ...rest, attempts: attempt, leaseUntil, lastAttemptAt: at, firstAttemptAt: found.firstAttemptAt ?? at };
    this.deliveriesByRef.set(deliveryKey(ref), claimed);
    return structuredClone(claimed);
  }

  async finishAttempt(ref: DeliveryRef, attempt: number, end: AttemptEnd): Promise<void> {
    const found = this.deliveriesByRef.get(deliveryKey(ref));
    // Another run took this attempt over (our lease ran out): its record stands.
    if (!found || found.attempts !== attempt || found.status !== 'pending') return;
    const { leaseUntil: _lease, ...rest } = found;
    this.deliveriesByRef.set(deliveryKey(ref), {
      ...rest,
      status: end.status,
      history: [...found.history, end.record],
      ...(end.status === 'pending' ? { nextAttemptAt: end.nextAttemptAt } : {}),
      ...(end.status === 'failed' ? { reason: end.reason } : {}),
    });
  }

  async skipDelivery(ref: DeliveryRef, reason: string): Promise<void> {
    const found = this.deliveriesByRef.get(deliveryKey(ref));
    if (found?.status !== 'pending') return;
    const { nextAttemptAt: _next, ...rest } = found;
    this.deliveriesByRef.set(deliveryKey(ref), { ...rest, status: 'skipped', reason });
  }

  async deliveries(factoryId: string, destinationId: string, query: { limit: number; before?: string }): Promise<{ deliveries: Delivery[]; more: boolean }> {
    const { before } = query;
    const newest = [...this.deliveriesByRef.values()]
      .filter((delivery) => delivery.factoryId === factoryId && delivery.destinationId === destinationId && (before === undefined || delivery.sk < before))
      .sort((a, b) => (a.sk < b.sk ? 1 : -1));
    return { deliveries: newest.slice(0, query.limit).map((delivery) => structuredClone(delivery)), more: newest.length > query.limit };
  }

  deliveryLog(
    factoryId: string,
    destinationIds: readonly string[],
    query: { limit: number; after?: LogPositions },
  ): Promise<{ deliveries: Delivery[]; next?: LogPositions }> {
    return readLog(destinationIds, query, (destinationId, before) =>
      this.deliveries(factoryId, destinationId, { limit: query.limit, ...(before === undefined ? {} : { before }) }),
    );
  }

  /** A change of an existing destination, answered with the destination after it; undefined when there is none. */
  private async changeDestination(factoryId: string, destinationId: string, change: (found: Destination) => Destination): Promise<Destination | undefined> {
    const key = destinationKey(factoryId, destinationId);
    const found = this.destinationsById.get(key);
    if (!found) return undefined;
    const changed = change(found);
    this.destinationsById.set(key, changed);
    return structuredClone(changed);
  }
}

const destinationKey = (factoryId: string, destinationId: string) => `${factoryId}#${destinationId}`;
const deliveryKey = (ref: DeliveryRef) => `${ref.factoryId}#${ref.destinationId}#${ref.sk}`;
