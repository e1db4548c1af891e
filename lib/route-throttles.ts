/**
 * Which API each route of the REST API belongs to, and the throttle each
 * route's methods get (docs/deploying.md#one-api-cannot-starve-the-other).
 * API Gateway applies a stage's throttle to every method separately, and a
 * method's own setting before the account's shared limit: so each public
 * route gets a limit of its own, lower than the contacts API's, and a storm
 * on it is refused there (429) before it reaches the account's bucket or the
 * contacts API's. CDK-free: the stack, the alarms and their tests read it.
 */
import { API_PREFIXES } from '../lambda/infrastructure/http/prefixes';

export interface Throttle {
  /** Requests per second, steady. */
  rate: number;
  /** Requests at once. */
  burst: number;
}

/** A prefix as API Gateway names its resource: `/ingest/v1/` → `/ingest/v1`. */
const resourceOf = (prefix: string) => prefix.replace(/\/$/, '');
const proxyOf = (prefix: string) => `${resourceOf(prefix)}/{proxy+}`;

/** The resources whose methods each API's requests reach (`$context.resourcePath` in the access log). */
export const API_RESOURCES = {
  /** Every path no other function owns: the contacts function behind `/` and `/{proxy+}`. */
  contacts: ['/', '/{proxy+}'],
  /** The browser and Sentry protocols: the ingest function. */
  ingest: [proxyOf(API_PREFIXES.ingest), proxyOf(API_PREFIXES.sentry)],
  /** CI uploads: the source maps function. */
  sourcemaps: [proxyOf(API_PREFIXES.sourcemaps)],
} as const;

export type ApiName = keyof typeof API_RESOURCES;

/**
 * The prefixes themselves (`/ingest`, `/ingest/v1`, …): resources the public APIs' proxies hang from, answered 404
 * by the contacts function. They carry no traffic worth a limit of their own, and get a small one, so that
 * requests to them cannot take the contacts function's capacity.
 */
export const PREFIX_RESOURCES = [
  ...new Set([API_PREFIXES.ingest, API_PREFIXES.sentry, API_PREFIXES.sourcemaps].flatMap((prefix) => [`/${prefix.split('/')[1]}`, resourceOf(prefix)])),
];

export const PREFIX_THROTTLE: Throttle = { rate: 10, burst: 20 };

/** API Gateway's default per account and region: every API of the account shares it, after the methods' own limits. */
export const ACCOUNT_THROTTLE: Throttle = { rate: 10_000, burst: 5_000 };

/**
 * The stage's method settings beyond its default (which is the contacts API's throttle): `<resource>/*` → throttle,
 * for every method of the public APIs' resources and of the prefixes.
 */
export function routeThrottles(limits: Record<Exclude<ApiName, 'contacts'>, Throttle>): Record<string, Throttle> {
  return Object.fromEntries([
    ...API_RESOURCES.ingest.map((resource) => [`${resource}/*`, limits.ingest] as const),
    ...API_RESOURCES.sourcemaps.map((resource) => [`${resource}/*`, limits.sourcemaps] as const),
    ...PREFIX_RESOURCES.map((resource) => [`${resource}/*`, PREFIX_THROTTLE] as const),
  ]);
}

/** What every method of the stage may take at most, together: the contacts API's resources at the stage's default, the others at their own. */
export function stageRateCeiling(contacts: Throttle, routes: Record<string, Throttle>): number {
  return API_RESOURCES.contacts.length * contacts.rate + Object.values(routes).reduce((sum, throttle) => sum + throttle.rate, 0);
}

/**
 * The access log's count of requests the gateway itself refused with 429 (`$context.error.responseType` THROTTLED:
 * a method's throttle or the account's), by `resource` (`$context.resourcePath`), in the stack's namespace: the
 * per-API 429 alarms read it (lib/alarms.ts). The functions' own 429s (a key's limit) are their RateLimited metric.
 */
export const GATEWAY_THROTTLED_METRIC = 'GatewayThrottled';
export const GATEWAY_THROTTLED_DIMENSION = 'resource';
