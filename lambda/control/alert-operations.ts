import { randomBytes } from 'node:crypto';
import * as z from 'zod/mini';
import { ALERT_TYPES, isReleaseAlertType, type AlertType } from '../alerts/alert';
import { attemptOnce } from '../alerts/deliver';
import { checkDestinationUrl, literalAddress, URL_MAX } from '../alerts/destination-url';
import { allowedAddresses, RefusedDestinationError, systemResolve } from '../alerts/guarded-lookup';
import { testPayload } from '../alerts/payload';
import {
  ALERT_RETENTION_DAYS,
  DESTINATIONS_MAX,
  PREVIOUS_SECRET_HOURS,
  type AlertStore,
  type Delivery,
  type Destination,
  type LogPositions,
} from '../alerts/ports';
import { CRASH_FREE_THRESHOLD_RANGE, RELEASE_MIN_SESSIONS_RANGE, SPIKE_FLOOR_RANGE, SPIKE_MULTIPLE_RANGE, settingsOf } from '../alerts/settings';
import { newWebhookSecret, testWebhookId } from '../alerts/signature';
import { decodeCursor, encodeCursor, type CursorScope } from '../kernel/cursor';
import { between, cursor, described, factoryId, upTo } from './fields';
import { ControlError, operation } from './operation';
import type { AlertOperationsDependencies, ControlDependencies } from './ports';
import type { AlertSettings, StoredSettings } from '../alerts/settings';

/**
 * The control room's alert operations (docs/alerts.md#destinations):
 *   alerts.list        {factoryId}                          destinations (never a secret) and settings
 *   alerts.add         {factoryId, url, types?, description?}  the secret once
 *   alerts.remove | alerts.rotate | alerts.enable  {factoryId, destinationId}
 *   alerts.disable     {factoryId, destinationId, reason}
 *   alerts.test        {factoryId, destinationId, type?}    one signed example, sent now
 *   alerts.deliveries  {factoryId, destinationId?, limit?, cursor?}  the log, newest first
 *   alerts.settings    {factoryId}                          the spike and release rules' settings
 *   alerts.configure   {factoryId, spikeMultiple?, spikeFloor?, crashFreeThreshold?, releaseMinSessions?}
 */
export const DELIVERIES_DEFAULT = 50;
/** The settings `alerts.configure` changes, in the order its error names them. */
const SETTING_FIELDS = ['spikeMultiple', 'spikeFloor', 'crashFreeThreshold', 'releaseMinSessions'] as const;
export const DELIVERIES_MAX = 200;
export const DESCRIPTION_MAX = 200;
export const DISABLE_REASON_MAX = 500;

const destinationId = described(
  z
    .string({ error: 'destinationId must be a string' })
    .check(z.regex(/^dst_[0-9a-f]{16}$/, { error: 'destinationId must be a destination id: dst_ + 16 hex characters (from `alerts list`)' })),
  { flag: 'destination', placeholder: 'dst_id', audited: true },
);
/** A crash-free share under which a release's hour is unhealthy: a fraction, as `reports releases` shows rates. */
const crashFreeThreshold = (() => {
  const { min, max } = CRASH_FREE_THRESHOLD_RANGE;
  const error = `crashFreeThreshold must be a number from ${min} to ${max} (a share of sessions: 0.99 is 99 %)`;
  return z.optional(described(z.number({ error }).check(z.minimum(min, { error }), z.maximum(max, { error })), { fraction: true, placeholder: 'share' }));
})();
const alertType = z.enum(ALERT_TYPES, { error: `type must be one of ${ALERT_TYPES.join(', ')}` });
const boundedText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be a string` })
    .check(z.minLength(1, { error: `${name} must not be empty` }), z.maxLength(max, { error: `${name} must be at most ${max} characters` }));

/** The host of a destination, for the audit line: a URL's path and query can hold a receiver's token. */
const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return undefined;
  }
};

/** A delivery as the log shows it: its last attempt's answer up front, never the secret; the body left out (the payload is the alert's). */
export function deliveryView(delivery: Delivery) {
  const last = delivery.history[delivery.history.length - 1];
  const {
    factoryId,
    destinationId,
    alertId,
    webhookId,
    type,
    issueId,
    occurredAt,
    status,
    attempts,
    createdAt,
    firstAttemptAt,
    lastAttemptAt,
    nextAttemptAt,
    reason,
    test,
    history,
  } = delivery;
  return {
    type,
    issueId,
    release: delivery.release,
    environment: delivery.environment,
    status,
    attempts,
    httpStatus: last?.status,
    latencyMs: last?.latencyMs,
    error: last?.error,
    occurredAt,
    createdAt,
    firstAttemptAt,
    lastAttemptAt,
    nextAttemptAt: status === 'pending' ? nextAttemptAt : undefined,
    reason,
    test,
    webhookId,
    alertId,
    destinationId,
    factoryId,
    history,
  };
}

/** A destination as operators see it: never a secret. */
export function destinationView(destination: Destination, lastDelivery?: Delivery) {
  const {
    destinationId,
    factoryId,
    url,
    types,
    description,
    createdAt,
    createdBy,
    disabled,
    failingSince,
    lastSuccessAt,
    secretRotatedAt,
    previousSecretUntil,
  } = destination;
  const last = lastDelivery ? deliveryView(lastDelivery) : undefined;
  return {
    destinationId,
    factoryId,
    url,
    types: types.length === 0 ? 'all' : types,
    status: disabled ? 'disabled' : 'enabled',
    disabled,
    failingSince,
    lastSuccessAt,
    description,
    createdAt,
    createdBy,
    secretRotatedAt,
    previousSecretValidUntil: previousSecretUntil,
    lastDelivery: last && {
      status: last.status,
      type: last.type,
      issueId: last.issueId,
      attempts: last.attempts,
      httpStatus: last.httpStatus,
      latencyMs: last.latencyMs,
      error: last.error,
      at: last.lastAttemptAt ?? last.createdAt,
      test: last.test,
    },
  };
}

/** The delivery log's cursor (lambda/kernel/cursor.ts): per destination, where its part of the log goes on; bound to the destination asked for, if any. */
const logList = (factoryId: string, destinationId: string | undefined): CursorScope => ({ factoryId, list: `deliveries ${destinationId ?? 'all'}` });

const logPositions = (value: unknown): LogPositions | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every((sk) => typeof sk === 'string')
    ? (value as LogPositions)
    : undefined;

function alertsOf(deps: ControlDependencies): AlertOperationsDependencies {
  if (!deps.alerts) throw new ControlError(500, 'alert operations are not configured on this control room (no alerts table)');
  return deps.alerts;
}

async function existing(store: AlertStore, factoryId: string, destinationId: string): Promise<Destination> {
  const found = await store.destination(factoryId, destinationId);
  if (!found) throw notFound(factoryId, destinationId);
  return found;
}

const notFound = (factoryId: string, destinationId: string) => new ControlError(404, `no destination ${destinationId} in ${factoryId}`);

/** The disable and enable operations: one write, the reason and who gave it kept. */
const toggle = (disable: boolean) =>
  operation({
    request: disable
      ? z.strictObject({ factoryId, destinationId, reason: boundedText('reason', DISABLE_REASON_MAX) })
      : z.strictObject({ factoryId, destinationId }),
    run: async (request, { deps, caller, now }) => {
      const reason = (request as { reason?: string }).reason;
      const disabled = disable ? { at: now.toISOString(), by: caller.principal, reason: reason ?? '' } : undefined;
      const changed = await alertsOf(deps).store.setDisabled(request.factoryId, request.destinationId, disabled);
      if (!changed) throw notFound(request.factoryId, request.destinationId);
      return { body: destinationView(changed), audit: { destinationId: request.destinationId, reasonGiven: disabled !== undefined } };
    },
  });

/**
 * Alerts: a factory's webhook destinations, their deliveries and the spike
 * settings. The audit fields name the destination and its host, never its
 * URL's path or query (receivers put tokens there) nor a secret.
 */
export const ALERT_OPERATIONS = {
  'alerts.list': operation({
    request: z.strictObject({ factoryId }),
    run: async ({ factoryId }, { deps }) => {
      const { store } = alertsOf(deps);
      const [destinations, settings] = await Promise.all([store.destinations(factoryId), store.settings(factoryId)]);
      const lasts = await Promise.all(destinations.map((destination) => store.deliveries(factoryId, destination.destinationId, { limit: 1 })));
      return {
        body: { factoryId, destinations: destinations.map((destination, index) => destinationView(destination, lasts[index]?.deliveries[0])), settings },
        audit: { count: destinations.length },
      };
    },
  }),

  'alerts.add': operation({
    request: z.strictObject({
      factoryId,
      url: described(boundedText('url', URL_MAX), { placeholder: 'URL' }),
      types: z.optional(z.array(alertType, { error: `types must be a list of alert types: ${ALERT_TYPES.join(', ')}` })),
      description: z.optional(boundedText('description', DESCRIPTION_MAX)),
    }),
    run: async (request, { deps, caller, now }) => {
      const alerts = alertsOf(deps);
      const checked = checkDestinationUrl(request.url, alerts.policy);
      if (!checked.ok) throw new ControlError(400, `url: ${checked.problem}`);
      const url = new URL(checked.url);
      if (literalAddress(url) === undefined) {
        try {
          await allowedAddresses(url.hostname, alerts.resolve ?? systemResolve, alerts.policy);
        } catch (error) {
          if (error instanceof RefusedDestinationError) throw new ControlError(400, `url: ${error.message}`);
          throw error;
        }
      }
      const destination: Destination = {
        factoryId: request.factoryId,
        destinationId: `dst_${randomBytes(8).toString('hex')}`,
        url: checked.url,
        types: [...new Set(request.types ?? [])] as AlertType[],
        ...(request.description === undefined ? {} : { description: request.description }),
        createdAt: now.toISOString(),
        createdBy: caller.principal,
        secret: newWebhookSecret(),
      };
      if ((await alerts.store.addDestination(destination)) === 'full') {
        throw new ControlError(400, `${request.factoryId} has ${DESTINATIONS_MAX} destinations, the most it may have: remove one first`);
      }
      // The secret goes to the caller once and never into the audit line.
      return {
        body: { ...destinationView(destination), secret: destination.secret },
        audit: { destinationId: destination.destinationId, host: hostOf(checked.url), types: destination.types },
      };
    },
  }),

  'alerts.remove': operation({
    request: z.strictObject({ factoryId, destinationId }),
    run: async ({ factoryId, destinationId }, { deps }) => {
      const removed = await alertsOf(deps).store.removeDestination(factoryId, destinationId);
      if (!removed) throw notFound(factoryId, destinationId);
      return { body: { removed: destinationView(removed) }, audit: { destinationId, host: hostOf(removed.url) } };
    },
  }),

  'alerts.rotate': operation({
    request: z.strictObject({ factoryId, destinationId }),
    run: async ({ factoryId, destinationId }, { deps, now }) => {
      const secret = newWebhookSecret();
      const until = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000).toISOString();
      const rotated = await alertsOf(deps).store.rotateSecret(factoryId, destinationId, secret, now.toISOString(), until);
      if (!rotated) throw notFound(factoryId, destinationId);
      return { body: { ...destinationView(rotated), secret }, audit: { destinationId, previousSecretValidUntil: until } };
    },
  }),

  'alerts.disable': toggle(true),
  'alerts.enable': toggle(false),

  'alerts.test': operation({
    request: z.strictObject({ factoryId, destinationId, type: z.optional(alertType) }),
    run: async (request, { deps, now }) => {
      const alerts = alertsOf(deps);
      const destination = await existing(alerts.store, request.factoryId, request.destinationId);
      const type: AlertType = request.type ?? 'issue.created';
      const at = now.toISOString();
      const delivery: Delivery = {
        factoryId: request.factoryId,
        destinationId: destination.destinationId,
        sk: `${at}#test:${randomBytes(6).toString('hex')}`,
        alertId: 'test',
        webhookId: testWebhookId(),
        type,
        // What the example is about, as a real delivery of its type names it.
        ...(isReleaseAlertType(type) ? { release: 'test', environment: 'production' } : { issueId: 'iss_00000000000000000000' }),
        occurredAt: at,
        body: testPayload(type, request.factoryId, now, alerts.linkBase),
        status: 'pending',
        attempts: 1,
        createdAt: at,
        firstAttemptAt: at,
        lastAttemptAt: at,
        history: [],
        test: true,
        expiresAt: Math.floor(now.getTime() / 1000) + ALERT_RETENTION_DAYS * 86_400,
      };
      // Sent now, once, even to a disabled destination (that is how one checks it before enabling it again); never retried.
      const { result, record } = await attemptOnce(alerts.send, destination, delivery, 1, now);
      const done: Delivery = { ...delivery, status: result.ok ? 'delivered' : 'failed', history: [record], ...(result.ok ? {} : { reason: record.error }) };
      await alerts.store.createDelivery(done);
      return {
        body: { delivery: deliveryView(done) },
        audit: { destinationId: destination.destinationId, type, outcome: done.status, httpStatus: record.status },
      };
    },
  }),

  'alerts.deliveries': operation({
    request: z.strictObject({ factoryId, destinationId: z.optional(destinationId), limit: upTo('limit', DELIVERIES_MAX), cursor }),
    run: async (request, { deps }) => {
      const { store } = alertsOf(deps);
      const { factoryId } = request;
      const limit = request.limit ?? DELIVERIES_DEFAULT;
      const scope = logList(factoryId, request.destinationId);
      const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor, scope, logPositions);
      if (request.destinationId !== undefined) await existing(store, factoryId, request.destinationId);
      const destinationIds =
        request.destinationId !== undefined ? [request.destinationId] : (await store.destinations(factoryId)).map((destination) => destination.destinationId);
      const log = await store.deliveryLog(factoryId, destinationIds, { limit, ...(after === undefined ? {} : { after }) });
      const nextCursor = log.next === undefined ? undefined : encodeCursor(scope, log.next);
      return {
        body: { factoryId, deliveries: log.deliveries.map(deliveryView), ...(nextCursor ? { cursor: nextCursor } : {}) },
        audit: { destinationId: request.destinationId, count: log.deliveries.length, more: nextCursor !== undefined },
      };
    },
  }),

  'alerts.settings': operation({
    request: z.strictObject({ factoryId }),
    run: async ({ factoryId }, { deps }) => ({ body: { factoryId, settings: await alertsOf(deps).store.settings(factoryId) }, audit: {} }),
  }),

  'alerts.configure': operation({
    request: z.strictObject({
      factoryId,
      spikeMultiple: between('spikeMultiple', SPIKE_MULTIPLE_RANGE.min, SPIKE_MULTIPLE_RANGE.max),
      spikeFloor: upTo('spikeFloor', SPIKE_FLOOR_RANGE.max),
      crashFreeThreshold,
      releaseMinSessions: between('releaseMinSessions', RELEASE_MIN_SESSIONS_RANGE.min, RELEASE_MIN_SESSIONS_RANGE.max),
    }),
    defaults: (request) => {
      if (SETTING_FIELDS.every((name) => request[name] === undefined))
        throw new ControlError(400, `say what to change: ${SETTING_FIELDS.slice(0, -1).join(', ')} or ${SETTING_FIELDS[SETTING_FIELDS.length - 1]}`);
      return request;
    },
    run: async (request, { deps, caller, now }) => {
      const change = Object.fromEntries(
        SETTING_FIELDS.flatMap((name) => (request[name] === undefined ? [] : [[name, request[name]]])),
      ) as Partial<AlertSettings>;
      const settings = await alertsOf(deps).store.saveSettings(request.factoryId, change, now.toISOString(), caller.principal);
      return {
        body: { factoryId: request.factoryId, settings: { ...settingsOf(settings), updatedAt: settings.updatedAt, updatedBy: settings.updatedBy } },
        audit: { ...change },
      };
    },
  }),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
export type DestinationView = ReturnType<typeof destinationView>;
export type DeliveryView = ReturnType<typeof deliveryView>;
export interface AlertListAnswer {
  factoryId: string;
  destinations: DestinationView[];
  settings: StoredSettings;
}
/** alerts.add and alerts.rotate: the destination and its new secret, in this answer only. */
export type AlertSecretAnswer = DestinationView & { secret: string };
export interface AlertRemoveAnswer {
  removed: DestinationView;
}
/** alerts.disable and alerts.enable. */
export type AlertToggleAnswer = DestinationView;
export interface AlertTestAnswer {
  delivery: DeliveryView;
}
export interface AlertDeliveriesAnswer {
  factoryId: string;
  deliveries: DeliveryView[];
  cursor?: string;
}
export interface AlertSettingsAnswer {
  factoryId: string;
  settings: StoredSettings;
}
export interface AlertConfigureAnswer {
  factoryId: string;
  settings: AlertSettings & Pick<StoredSettings, 'updatedAt' | 'updatedBy'>;
}
