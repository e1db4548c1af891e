import { randomBytes } from 'node:crypto';
import type { AlertType } from '../alerts/alert';
import type { AddressPolicy } from '../alerts/address-policy';
import { attemptOnce } from '../alerts/deliver';
import { checkDestinationUrl, literalAddress } from '../alerts/destination-url';
import { allowedAddresses, RefusedDestinationError, systemResolve, type Resolve } from '../alerts/guarded-lookup';
import { testPayload } from '../alerts/payload';
import { ALERT_RETENTION_DAYS, DESTINATIONS_MAX, PREVIOUS_SECRET_HOURS, type AlertStore, type Delivery, type Destination } from '../alerts/ports';
import { settingsOf } from '../alerts/settings';
import { newWebhookSecret, testWebhookId } from '../alerts/signature';
import type { WebhookSender } from '../alerts/webhook-sender';
import { DELIVERIES_DEFAULT, type AlertRequest } from './alert-requests';
import { AdminNotFoundError, AdminRequestError, NotConfiguredError } from './admin-operations';

/** What the alert operations run on: the alert store, and the guarded sender for "send a test". */
export interface AlertOperationsDependencies {
  store: AlertStore;
  send: WebhookSender;
  /** Which destinations may be added: public addresses only on a stack, loopback too under npm start. */
  policy: AddressPolicy;
  /** Resolves a new destination's host (a stub in the tests). */
  resolve?: Resolve;
  /** Where payload links point. */
  linkBase: string;
}

type Done = { body: Record<string, unknown>; audit: Record<string, string | number | boolean | string[] | undefined> };

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
  const { factoryId, destinationId, alertId, webhookId, type, issueId, occurredAt, status, attempts, createdAt, firstAttemptAt, lastAttemptAt, nextAttemptAt, reason, test, history } = delivery;
  return {
    type,
    issueId,
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
  const { destinationId, factoryId, url, types, description, createdAt, createdBy, disabled, failingSince, lastSuccessAt, secretRotatedAt, previousSecretUntil } = destination;
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
    lastDelivery: last && { status: last.status, type: last.type, issueId: last.issueId, attempts: last.attempts, httpStatus: last.httpStatus, latencyMs: last.latencyMs, error: last.error, at: last.lastAttemptAt ?? last.createdAt, test: last.test },
  };
}

/** The delivery log's cursor: per destination, where its part of the log goes on. */
function readCursor(cursor: string | undefined): Record<string, string> {
  if (cursor === undefined) return {};
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (typeof value === 'object' && value !== null && Object.values(value).every((sk) => typeof sk === 'string')) return value as Record<string, string>;
  } catch {
    // fall through
  }
  throw new AdminRequestError('cursor is not one this list returned: pass back the cursor of the previous page');
}

const writeCursor = (positions: Record<string, string>) => Buffer.from(JSON.stringify(positions)).toString('base64url');

function alertsOf(deps: { alerts?: AlertOperationsDependencies }): AlertOperationsDependencies {
  if (!deps.alerts) throw new NotConfiguredError('alert operations are not configured on this control room (no alerts table)');
  return deps.alerts;
}

async function existing(store: AlertStore, factoryId: string, destinationId: string): Promise<Destination> {
  const found = await store.destination(factoryId, destinationId);
  if (!found) throw new AdminNotFoundError(`no destination ${destinationId} in ${factoryId}`);
  return found;
}

const notFound = (factoryId: string, destinationId: string) => new AdminNotFoundError(`no destination ${destinationId} in ${factoryId}`);

/**
 * Runs an alert operation for a caller (docs/alerts.md#destinations). The
 * audit fields name the destination and its host, never its URL's path or
 * a secret. Throws AdminRequestError, AdminNotFoundError,
 * NotConfiguredError, or what the store throws.
 */
export async function runAlertOperation(deps: { alerts?: AlertOperationsDependencies }, request: AlertRequest, caller: { principal: string }, now: Date): Promise<Done> {
  const alerts = alertsOf(deps);
  const { store } = alerts;
  const { factoryId } = request;
  const at = now.toISOString();
  switch (request.operation) {
    case 'alerts.list': {
      const [destinations, settings] = await Promise.all([store.destinations(factoryId), store.settings(factoryId)]);
      const lasts = await Promise.all(destinations.map((destination) => store.deliveries(factoryId, destination.destinationId, { limit: 1 })));
      return {
        body: { factoryId, destinations: destinations.map((destination, index) => destinationView(destination, lasts[index]?.deliveries[0])), settings },
        audit: { count: destinations.length },
      };
    }
    case 'alerts.add': {
      const checked = checkDestinationUrl(request.url, alerts.policy);
      if (!checked.ok) throw new AdminRequestError(`url: ${checked.problem}`);
      const url = new URL(checked.url);
      if (literalAddress(url) === undefined) {
        try {
          await allowedAddresses(url.hostname, alerts.resolve ?? systemResolve, alerts.policy);
        } catch (error) {
          if (error instanceof RefusedDestinationError) throw new AdminRequestError(`url: ${error.message}`);
          throw error;
        }
      }
      const destination: Destination = {
        factoryId,
        destinationId: `dst_${randomBytes(8).toString('hex')}`,
        url: checked.url,
        types: [...new Set(request.types ?? [])] as AlertType[],
        ...(request.description === undefined ? {} : { description: request.description }),
        createdAt: at,
        createdBy: caller.principal,
        secret: newWebhookSecret(),
      };
      if ((await store.addDestination(destination)) === 'full') {
        throw new AdminRequestError(`${factoryId} has ${DESTINATIONS_MAX} destinations, the most it may have: remove one first`);
      }
      // The secret goes to the caller once and never into the audit line.
      return { body: { ...destinationView(destination), secret: destination.secret }, audit: { destinationId: destination.destinationId, host: hostOf(checked.url), types: destination.types } };
    }
    case 'alerts.remove': {
      const removed = await store.removeDestination(factoryId, request.destinationId);
      if (!removed) throw notFound(factoryId, request.destinationId);
      return { body: { removed: destinationView(removed) }, audit: { destinationId: request.destinationId, host: hostOf(removed.url) } };
    }
    case 'alerts.rotate': {
      const secret = newWebhookSecret();
      const until = new Date(now.getTime() + PREVIOUS_SECRET_HOURS * 3_600_000).toISOString();
      const rotated = await store.rotateSecret(factoryId, request.destinationId, secret, at, until);
      if (!rotated) throw notFound(factoryId, request.destinationId);
      return { body: { ...destinationView(rotated), secret }, audit: { destinationId: request.destinationId, previousSecretValidUntil: until } };
    }
    case 'alerts.disable':
    case 'alerts.enable': {
      const disabled = request.operation === 'alerts.disable' ? { at, by: caller.principal, reason: request.reason } : undefined;
      const changed = await store.setDisabled(factoryId, request.destinationId, disabled);
      if (!changed) throw notFound(factoryId, request.destinationId);
      return { body: destinationView(changed), audit: { destinationId: request.destinationId, reasonGiven: disabled !== undefined } };
    }
    case 'alerts.test': {
      const destination = await existing(store, factoryId, request.destinationId);
      const type: AlertType = request.type ?? 'issue.created';
      const delivery: Delivery = {
        factoryId,
        destinationId: destination.destinationId,
        sk: `${at}#test:${randomBytes(6).toString('hex')}`,
        alertId: 'test',
        webhookId: testWebhookId(),
        type,
        issueId: 'iss_00000000000000000000',
        occurredAt: at,
        body: testPayload(type, factoryId, now, alerts.linkBase),
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
      await store.createDelivery(done);
      return { body: { delivery: deliveryView(done) }, audit: { destinationId: destination.destinationId, type, outcome: done.status, httpStatus: record.status } };
    }
    case 'alerts.deliveries': {
      const limit = request.limit ?? DELIVERIES_DEFAULT;
      const positions = readCursor(request.cursor);
      const destinationIds = request.destinationId !== undefined ? [request.destinationId] : (await store.destinations(factoryId)).map((destination) => destination.destinationId);
      if (request.destinationId !== undefined) await existing(store, factoryId, request.destinationId);
      // A destination whose part of the log ended is left out of the cursor: absent from a cursor given means "ended".
      const live = request.cursor === undefined ? destinationIds : destinationIds.filter((id) => positions[id] !== undefined);
      const pages = await Promise.all(live.map(async (id) => ({ id, page: await store.deliveries(factoryId, id, { limit, before: positions[id] }) })));
      const merged = pages
        .flatMap(({ id, page }) => page.deliveries.map((delivery) => ({ id, delivery })))
        .sort((a, b) => (a.delivery.sk < b.delivery.sk ? 1 : a.delivery.sk > b.delivery.sk ? -1 : 0))
        .slice(0, limit);
      const next: Record<string, string> = {};
      for (const { id, page } of pages) {
        const taken = merged.filter((entry) => entry.id === id);
        const last = taken[taken.length - 1];
        const left = page.deliveries.length > taken.length || page.more;
        if (left) next[id] = last ? last.delivery.sk : (positions[id] ?? '\uffff');
      }
      const cursor = Object.keys(next).length > 0 ? writeCursor(next) : undefined;
      return {
        body: { factoryId, deliveries: merged.map(({ delivery }) => deliveryView(delivery)), ...(cursor ? { cursor } : {}) },
        audit: { destinationId: request.destinationId, count: merged.length, more: cursor !== undefined },
      };
    }
    case 'alerts.settings':
      return { body: { factoryId, settings: await store.settings(factoryId) }, audit: {} };
    case 'alerts.configure': {
      if (request.spikeMultiple === undefined && request.spikeFloor === undefined) throw new AdminRequestError('say what to change: spikeMultiple, spikeFloor or both');
      const change = { ...(request.spikeMultiple === undefined ? {} : { spikeMultiple: request.spikeMultiple }), ...(request.spikeFloor === undefined ? {} : { spikeFloor: request.spikeFloor }) };
      const settings = await store.saveSettings(factoryId, change, at, caller.principal);
      return { body: { factoryId, settings: { ...settingsOf(settings), updatedAt: settings.updatedAt, updatedBy: settings.updatedBy } }, audit: { ...change } };
    }
  }
}
