import { randomUUID } from 'node:crypto';
import { readReports } from '../../lambda/infrastructure/store/reports/report-reader';
import type { ReportKind } from '../../lambda/ingest/issues/stored-event';
import type { HttpResponse } from './http';
import { tallied } from './tally';
import { issuePublishableKey, newFactoryId, tables, testDoc, type LocalApi } from './local-api';

export const SITE = 'https://app.example.com';
export const EVENTS = '/ingest/v1/events';
export const FEATURE_REQUESTS = '/ingest/v1/feature-requests';

/** An event the contract accepts, with a fresh eventId unless given. */
export const validEvent = (extra: Record<string, unknown> = {}): Record<string, any> & { eventId: string; message: string } => ({
  eventId: randomUUID(),
  type: 'error',
  message: 'TypeError: x is undefined',
  ...extra,
});

export const featureRequest = (extra: Record<string, unknown> = {}) => ({ requestId: randomUUID(), title: 'Dark mode', ...extra });

export interface PostOptions {
  /** The page's origin; `null` sends none. Default: the tenant's first origin. */
  origin?: string | null;
  contentType?: string | null;
  /** Where the key goes: the Authorization header (default) or `?key=`. */
  keyIn?: 'header' | 'query' | 'both';
  key?: string;
  headers?: Record<string, string>;
  /** The body as sent: a string is sent as is, anything else as JSON. */
  raw?: string | Buffer;
  /** The client's address (127.0.0.0/8). Default: a random one, so the per-address limit of 60 a minute never gets in a test's way. */
  from?: string;
}

/** A loopback address other tests are unlikely to use: the server sees each as another client. */
export const randomClient = (): string =>
  `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;

/** A factory with a publishable key bound to `origins`, and the calls a page of it makes. */
export async function ingestTenant(api: LocalApi, origins: string[] = [SITE], label = 'ing', rateLimit?: number) {
  const factoryId = newFactoryId(label);
  const { key, keyId } = await issuePublishableKey(factoryId, origins, rateLimit === undefined ? {} : { rateLimit });
  const post = (path: string, body: unknown, options: PostOptions = {}): Promise<HttpResponse> => {
    const useKey = options.key ?? key;
    const headers: Record<string, string> = { ...options.headers };
    const origin = options.origin === undefined ? origins[0] : options.origin;
    if (origin !== null && origin !== undefined) headers.Origin = origin;
    const contentType = options.contentType === undefined ? 'application/json' : options.contentType;
    if (contentType !== null) headers['Content-Type'] = contentType;
    const keyIn = options.keyIn ?? 'header';
    if (keyIn !== 'query') headers.Authorization = `Bearer ${useKey}`;
    const target = keyIn === 'header' ? path : `${path}?key=${encodeURIComponent(useKey)}`;
    return api.request('POST', target, { headers, body: options.raw ?? JSON.stringify(body), localAddress: options.from ?? randomClient() });
  };
  return {
    factoryId,
    key,
    keyId,
    origin: origins[0] as string,
    post,
    events: (events: unknown[], options?: PostOptions) => post(EVENTS, { events }, options),
    featureRequest: (body: unknown, options?: PostOptions) => post(FEATURE_REQUESTS, body, options),
  };
}

/** What the reports command would print for a factory, newest first. */
export async function storedReports(factoryId: string, kind: ReportKind = 'events', options: { type?: string; since?: string; limit?: number } = {}) {
  // Events are listed once the tally has put them on their feed pages.
  await tallied();
  const found: Record<string, any>[] = [];
  for await (const report of readReports(testDoc(), tables.reports, factoryId, kind, options)) found.push(report);
  return found;
}

/** The Access-Control-* headers of an answer, by lowercased name. */
export const corsOf = (res: HttpResponse): Record<string, string> =>
  Object.fromEntries(
    Object.entries(res.headers)
      .filter(([name]) => name.startsWith('access-control-'))
      .map(([name, value]) => [name, String(value)]),
  );
