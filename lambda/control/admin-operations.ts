import type { KeyType } from '../domain/api-key';
import { CANARY_KEY_REFUSED, isCanaryFactory } from '../domain/canary';
import type { ReportKind } from '../store/schema';
import { REPORTS_DEFAULT, type AdminRequest } from './admin-requests';

/** A key as operators see it (never the secret but once, on creation): what `keys list` prints. */
export interface KeyView {
  keyId: string;
  type: KeyType;
  rateLimit: number;
  origins?: string[];
}

export interface NewKey {
  factoryId: string;
  type: KeyType;
  rateLimit?: number;
  origins?: string[];
  now?: Date;
}

/** Issuing, listing and revoking keys (DynamoDB adapter: lambda/store/key-admin.ts). */
export interface KeyAdminPort {
  create(options: NewKey): Promise<KeyView & { key: string }>;
  list(factoryId: string): Promise<KeyView[]>;
  revoke(keyId: string, now: Date, factoryId: string): Promise<KeyView | undefined>;
}

export interface ReportPageQuery {
  cursor?: string;
  limit: number;
  /** Events of this type only. */
  type?: string;
  /** Items past this time (epoch ms) have expired and are skipped. */
  nowMs?: number;
}

export interface ReportPage {
  items: Record<string, unknown>[];
  /** Where the next page starts; absent at the end. */
  next?: string;
}

/** What the ingest API stored, read for the control room (DynamoDB adapter: lambda/store/report-page.ts). */
export interface ReportFeedPort {
  page(factoryId: string, kind: ReportKind, query: ReportPageQuery): Promise<ReportPage>;
  get(factoryId: string, kind: ReportKind, id: string): Promise<Record<string, unknown> | undefined>;
}

export interface AdminDependencies {
  keys?: {
    admin: KeyAdminPort;
    /** Requests per minute of a new secret key given none (the stack's defaultRateLimit); KeyAdmin's own default otherwise. */
    defaultRateLimit?: number;
  };
  reports?: ReportFeedPort;
}

/** The request is well formed but cannot be done as asked: 400 with this message. */
export class AdminRequestError extends Error {
  override readonly name = 'AdminRequestError';
}

/** No such key or report in the factory: 404. */
export class AdminNotFoundError extends Error {
  override readonly name = 'AdminNotFoundError';
}

/** The function was deployed without the tables these operations need: 500, said plainly. */
export class NotConfiguredError extends Error {
  override readonly name = 'NotConfiguredError';
}

type Done = { body: Record<string, unknown>; audit: Record<string, string | number | boolean | string[] | undefined> };

const withCursor = (next: string | undefined) => (next === undefined ? {} : { cursor: next });

function keyAdmin(deps: AdminDependencies) {
  if (!deps.keys) throw new NotConfiguredError('key operations are not configured on this control room (no keys table)');
  return deps.keys;
}

function reportFeed(deps: AdminDependencies) {
  if (!deps.reports) throw new NotConfiguredError('report operations are not configured on this control room (no reports table)');
  return deps.reports;
}

/**
 * Runs a key or report operation. The audit fields name keys and counts,
 * never a secret or a report's text. Throws AdminRequestError,
 * AdminNotFoundError, NotConfiguredError, or what the store throws.
 */
export async function runAdmin(deps: AdminDependencies, request: AdminRequest, now: Date): Promise<Done> {
  const { factoryId } = request;
  switch (request.operation) {
    case 'keys.list': {
      const keys = await keyAdmin(deps).admin.list(factoryId);
      return { body: { factoryId, keys }, audit: { count: keys.length } };
    }
    case 'keys.create': {
      if (isCanaryFactory(factoryId)) throw new AdminRequestError(CANARY_KEY_REFUSED);
      const type: KeyType = request.type ?? 'secret';
      const origins = request.origins ?? [];
      if (type === 'secret' && origins.length > 0) throw new AdminRequestError('origins are only for publishable keys');
      if (type === 'publishable' && origins.length === 0) {
        throw new AdminRequestError('a publishable key needs at least one origin (the website it is used on)');
      }
      const { admin, defaultRateLimit } = keyAdmin(deps);
      const rateLimit = request.rateLimit ?? (type === 'secret' ? defaultRateLimit : undefined);
      const created = await admin.create({ factoryId, type, rateLimit, ...(type === 'publishable' ? { origins } : {}), now });
      // The secret goes to the caller once and never into the audit line.
      return { body: { ...created }, audit: { keyId: created.keyId, type, rateLimit: created.rateLimit, origins: created.origins?.length } };
    }
    case 'keys.revoke': {
      const revoked = await keyAdmin(deps).admin.revoke(request.keyId, now, factoryId);
      if (!revoked) throw new AdminNotFoundError(`no key ${request.keyId} in ${factoryId}`);
      return { body: { ...revoked }, audit: { keyId: request.keyId } };
    }
    case 'reports.events':
    case 'reports.feature-requests': {
      const kind: ReportKind = request.operation === 'reports.events' ? 'events' : 'feature-requests';
      const query: ReportPageQuery = {
        cursor: request.cursor,
        limit: request.limit ?? REPORTS_DEFAULT,
        nowMs: now.getTime(),
        ...('type' in request && request.type !== undefined ? { type: request.type } : {}),
      };
      const page = await reportFeed(deps).page(factoryId, kind, query);
      const key = kind === 'events' ? 'events' : 'featureRequests';
      return { body: { factoryId, [key]: page.items, ...withCursor(page.next) }, audit: { count: page.items.length, more: page.next !== undefined } };
    }
    case 'reports.event': {
      const event = await reportFeed(deps).get(factoryId, 'events', request.eventId);
      if (!event) throw new AdminNotFoundError(`no event ${request.eventId} in ${factoryId}`);
      return { body: { event }, audit: { eventId: request.eventId } };
    }
    case 'reports.feature-request': {
      const featureRequest = await reportFeed(deps).get(factoryId, 'feature-requests', request.requestId);
      if (!featureRequest) throw new AdminNotFoundError(`no feature request ${request.requestId} in ${factoryId}`);
      return { body: { featureRequest }, audit: { requestId: request.requestId } };
    }
  }
}
