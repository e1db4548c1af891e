import type { AlertType } from './alert';
import type { AlertSettings, StoredSettings } from './settings';

/** Most webhook destinations one factory may have. */
export const DESTINATIONS_MAX = 10;
/** Days an alert and its deliveries stay in the log before DynamoDB's time to live removes them. */
export const ALERT_RETENTION_DAYS = 30;
/** A rotated secret keeps signing beside the new one this long, so receivers can move without missing a delivery. */
export const PREVIOUS_SECRET_HOURS = 24;

export interface Disabled {
  at: string;
  by: string;
  reason: string;
}

/** A webhook destination of a factory, as stored: the secret included (never shown but once). */
export interface Destination {
  factoryId: string;
  destinationId: string;
  url: string;
  /** Alert types it receives; empty: all. */
  types: AlertType[];
  description?: string;
  createdAt: string;
  createdBy: string;
  secret: string;
  /** After a rotation: the secret before it, which signs too until `previousSecretUntil`. */
  previousSecret?: string;
  previousSecretUntil?: string;
  secretRotatedAt?: string;
  disabled?: Disabled;
  /** Since when every attempt failed (none succeeded since): set at the first failure of a run, removed at the next success. */
  failingSince?: string;
  lastSuccessAt?: string;
}

export type DeliveryStatus = 'pending' | 'delivered' | 'failed' | 'skipped';

/** One attempt, as the delivery log shows it. */
export interface AttemptRecord {
  attempt: number;
  at: string;
  latencyMs: number;
  /** The answer's status, when there was one. */
  status?: number;
  error?: string;
  /** At most 1 KB of the answer's body. */
  answer?: string;
}

/** Where a delivery is stored: its destination's partition, and its place in it. */
export interface DeliveryRef {
  factoryId: string;
  destinationId: string;
  /** `<occurredAt>#<alertId>`: newest last in the destination's partition. */
  sk: string;
}

/** One alert to one destination, and every attempt at it. */
export interface Delivery extends DeliveryRef {
  alertId: string;
  webhookId: string;
  type: AlertType;
  /** The issue an issue alert is of; a release alert has none, but its release and environment. */
  issueId?: string;
  release?: string;
  environment?: string;
  occurredAt: string;
  /** The exact body every attempt sends. */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  createdAt: string;
  firstAttemptAt?: string;
  lastAttemptAt?: string;
  /** When the next attempt is due (pending only). */
  nextAttemptAt?: string;
  /** An attempt in flight holds the delivery until then; past it, a retried message may take it over. */
  leaseUntil?: string;
  history: AttemptRecord[];
  /** Why it was skipped or gave up, in words. */
  reason?: string;
  /** A "send a test": one attempt, never retried. */
  test?: boolean;
  expiresAt: number;
}

/** Where the delivery log of several destinations goes on: per destination, the sort key its part ended on (a destination absent: its part ended). */
export type LogPositions = Record<string, string>;

/** What an attempt ends in. */
export type AttemptEnd =
  | { status: 'delivered'; record: AttemptRecord }
  | { status: 'pending'; record: AttemptRecord; nextAttemptAt: string }
  | { status: 'failed'; record: AttemptRecord; reason: string };

/**
 * What alerts need of storage (DynamoDB adapter: lambda/infrastructure/store/alerts/dynamo-alert-store.ts).
 * Every write that decides something is conditional: no read-then-write.
 */
export interface AlertStore {
  settings(factoryId: string): Promise<StoredSettings>;
  saveSettings(factoryId: string, change: Partial<AlertSettings>, at: string, by: string): Promise<StoredSettings>;

  /** Adds it unless the factory has DESTINATIONS_MAX already (the count and the item in one transaction). */
  /** Throws DestinationExistsError when the id is taken (ids are random: a caller's bug, never a user's). */
  addDestination(destination: Destination): Promise<'added' | 'full'>;
  destinations(factoryId: string): Promise<Destination[]>;
  destination(factoryId: string, destinationId: string): Promise<Destination | undefined>;
  /** The destination removed, or undefined when there was none. */
  removeDestination(factoryId: string, destinationId: string): Promise<Destination | undefined>;
  rotateSecret(factoryId: string, destinationId: string, secret: string, at: string, previousUntil: string): Promise<Destination | undefined>;
  /** Disables (with the reason) or enables it; enabling also forgets its run of failures. */
  setDisabled(factoryId: string, destinationId: string, disabled: Disabled | undefined): Promise<Destination | undefined>;
  /** A failed attempt: starts the run of failures if none is going on. */
  noteFailure(factoryId: string, destinationId: string, at: string): Promise<void>;
  /** A delivered attempt: ends the run of failures. */
  noteSuccess(factoryId: string, destinationId: string, at: string): Promise<void>;
  /** Disables it if it has failed without a success since `since`; true when this call disabled it. */
  disableIfFailingSince(factoryId: string, destinationId: string, since: string, disabled: Disabled): Promise<boolean>;

  /** Stores the alert once per id: `created` for the first writer; `fannedOut` once its deliveries were all made. */
  recordAlert(alert: {
    factoryId: string;
    alertId: string;
    type: AlertType;
    issueId?: string;
    occurredAt: string;
    at: string;
    expiresAt: number;
  }): Promise<{ created: boolean; fannedOut: boolean }>;
  markFannedOut(factoryId: string, alertId: string, at: string): Promise<void>;

  /**
   * A release's unhealthy spell (docs/alerts.md#release-alerts), one item per factory, environment and release
   * (`spellKey`). Opening sets the hour it began unless one is open. Closing, at a healthy hour not before it began,
   * moves the open spell to `closing` in one conditional write and answers its first hour: the recovery to send.
   * Until `spellClosed` clears it, every close answers that same hour again, so a notifier that stopped between
   * the write and the alert sends it on its retry; with nothing open nor closing it answers undefined.
   */
  openSpell(factoryId: string, spellKey: string, hour: number, expiresAt: number): Promise<void>;
  closeSpell(factoryId: string, spellKey: string, hour: number): Promise<number | undefined>;
  spellClosed(factoryId: string, spellKey: string, spellHour: number): Promise<void>;

  /** Stores the delivery once per alert and destination; the stored one when it existed. */
  createDelivery(delivery: Delivery): Promise<{ created: true } | { created: false; existing: Delivery }>;
  delivery(ref: DeliveryRef): Promise<Delivery | undefined>;
  /** Takes attempt `attempt` of a pending delivery (the previous one ended, or its lease ran out); the delivery as taken, or undefined. */
  claimAttempt(ref: DeliveryRef, attempt: number, at: string, leaseUntil: string): Promise<Delivery | undefined>;
  finishAttempt(ref: DeliveryRef, attempt: number, end: AttemptEnd): Promise<void>;
  /** Ends a pending delivery without an attempt (its destination was removed or disabled). */
  skipDelivery(ref: DeliveryRef, reason: string): Promise<void>;
  /** The log of one destination, newest first. */
  deliveries(factoryId: string, destinationId: string, query: { limit: number; before?: string }): Promise<{ deliveries: Delivery[]; more: boolean }>;
  /**
   * The log of several destinations as one list, newest first (./delivery-log.ts), at most `limit`,
   * from `after` on (only the destinations it names); `next` when more remain.
   */
  deliveryLog(
    factoryId: string,
    destinationIds: readonly string[],
    query: { limit: number; after?: LogPositions },
  ): Promise<{ deliveries: Delivery[]; next?: LogPositions }>;
}

/** A delivery's attempt to make, now or after a delay (SQS on AWS, timers under npm start). */
export interface DeliveryMessage extends DeliveryRef {
  attempt: number;
}

export interface DeliveryQueue {
  /** At most 900 s (SQS's longest delay): a longer wait is made of several hops. */
  enqueue(message: DeliveryMessage, delaySeconds: number): Promise<void>;
}

/** The platform team's topic (SNS): every alert of every factory, in one line of text. */
export interface PlatformTopic {
  publish(subject: string, message: string): Promise<void>;
}

/** A destination added under an id the factory already has: both stores refuse it alike. */
export class DestinationExistsError extends Error {
  constructor(destinationId: string) {
    super(`destination ${destinationId} exists already`);
    this.name = 'DestinationExistsError';
  }
}
