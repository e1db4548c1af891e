import { hashSecret } from '../../kernel/api-key';
import { clip } from '../../kernel/clip';
import { addressHash, clientNetwork } from '../address';
import { readIngestCredential, type IngestCredential } from '../credentials';
import { cleanText } from '../../kernel/free-text';
import { EVENT_TEXT } from '../limits';
import { normalizeRequestOrigin, originAllowed } from '../../kernel/origins';
import type { AddressDecision, AddressLimiter, AddressLimitName, IngestKeyAuthorizer, PublishableKey, VisitorSalts } from '../ports';
import { saltDay, visitorHash } from '../visitor-hash';
import { METRIC } from '../../infrastructure/observability/names';
import type { BodyCheck, Check } from '../../infrastructure/http/pipeline';
import { note, type RequestState } from '../../infrastructure/http/request-state';
import { apiError } from '../../infrastructure/http/responses';
import type { ApiEvent } from '../../infrastructure/http/types';
import type { IngestSlot } from './ingest-slot';
import { carriesAnything, carryOf } from '../sessions/session-carry';
import type { SessionReport } from '../sessions/session-reports';
import { KeyRevokedError, LimitedError } from '../errors';
import { admitKey, type Sender } from '../receive-events';

export const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="ingest"' };

/** The 401 of a revoked publishable key: at the key check, or when a lease of its limit finds it revoked later in the request. */
export const REVOKED_INGEST_KEY = 'This API key has been revoked: ask your platform team for a new one.';

/** One message for every key that is not a usable publishable key: a secret key is refused exactly like an unknown one. */
export const UNKNOWN_INGEST_KEY = 'Unknown API key: send the publishable key (dfpk_…) issued for your website, copied whole.';

const REJECTIONS: Record<Exclude<IngestCredential['kind'], 'publishable' | 'secret'>, string> = {
  missing: 'Missing API key: send "Authorization: Bearer dfpk_…", or ?key=dfpk_… with navigator.sendBeacon.',
  'not-bearer': 'The Authorization header must be "Bearer <publishable key>", like "Bearer dfpk_…".',
  repeated: 'Send the key once: one Authorization header, or one key parameter.',
  conflicting: 'The key in the Authorization header and the one in ?key= differ: send one key.',
  malformed: UNKNOWN_INGEST_KEY,
};

const ADDRESS_LIMIT_TEXT: Record<AddressLimitName, string> = {
  requests: 'Too many requests from your address with this key',
  featureRequests: 'Too many feature requests from your address with this key',
};

/** What the access check needs: the key calls, the per-address limiter, and a clock the tests can move. */
export interface IngestAccessDependencies {
  keys: IngestKeyAuthorizer;
  limiter: AddressLimiter;
  /** The day's salt of visitor hashes; without it, events carry no visitor (docs/report-issues.md#visitors-affected). */
  visitorSalts?: VisitorSalts;
  now?: () => number;
}

/**
 * The visitor's hash for the day, or none when the day's salt cannot be
 * read: the events are stored all the same (their counts stay exact), only
 * not counted as visitors, and the log line says so.
 */
async function visitorOf(
  deps: IngestAccessDependencies,
  state: RequestState,
  factoryId: string,
  sourceIp: string | undefined,
  userAgent: string | undefined,
  at: number,
) {
  if (!deps.visitorSalts) return undefined;
  try {
    return visitorHash(await deps.visitorSalts.saltFor(saltDay(at), at), factoryId, sourceIp, userAgent);
  } catch {
    note(state, { visitorSalt: 'unavailable' });
    return undefined;
  }
}

/** Every value of a header (lowercased name) or query parameter, repeats included: API Gateway gives both a single and a multi-value map. */
export function valuesOf(
  single: Record<string, string | undefined> | null | undefined,
  multi: Record<string, string[] | undefined> | null | undefined,
  name: string,
): string[] {
  const many = multi?.[name];
  if (many && many.length > 0) return many;
  const one = single?.[name];
  return one === undefined ? [] : [one];
}

const refusedOrigin = (state: RequestState, origin: string | undefined) => {
  note(state, { refusedOrigin: origin === undefined ? '(none)' : clip(origin, 200) }, { [METRIC.originsRefused]: 1 });
  if (origin === undefined) {
    return apiError(
      403,
      'Missing Origin header: this key is bound to websites, and only their pages may send reports with it (a key for servers too is issued with keys create --servers).',
    );
  }
  return apiError(
    403,
    `Origin ${JSON.stringify(clip(origin, 200))} is not one of the websites this key was issued for: use the key issued for this website, or ask your platform team for one.`,
  );
};

/**
 * What an event records as its origin when it came without one, from a key
 * issued with `--servers` (a customer's backend): not a website.
 */
export const SERVER_ORIGIN = 'server';

/**
 * The per-address limits a request is held to: a browser's all of them; a servers key's backend (no Origin) not the
 * per-request one, which is meant for one visitor's browser, while a backend's many processes may share one
 * address: its traffic is held by the key's own per-minute limit and each error's share (docs/keys.md#servers).
 */
export const addressLimitsFor = (from: string, limits: readonly AddressLimitName[]): readonly AddressLimitName[] =>
  from === SERVER_ORIGIN ? limits.filter((limit) => limit !== 'requests') : limits;

/** The log line's and metrics' counts of the sessions a request recorded: counts only. */
function noteSessions(state: RequestState, report: SessionReport, dropped: number): void {
  const updates = report.updates.length;
  const aggregates = report.aggregates.length;
  if (updates + aggregates + report.invalid === 0) return;
  note(
    state,
    {
      sessionUpdates: updates,
      sessionAggregates: aggregates,
      ...(report.invalid > 0 ? { sessionsInvalid: report.invalid } : {}),
      ...(dropped > 0 ? { sessionsDropped: dropped } : {}),
    },
    { [METRIC.sessionUpdates]: updates, [METRIC.sessionAggregates]: aggregates, [METRIC.sessionsDropped]: dropped + report.invalid },
  );
}

/**
 * The key's request taken before the write that records the sessions of a
 * request whose events would take it later
 * (docs/capacity.md#refusals-before-the-sessions-are-written): refused
 * there, the request is answered 429 (or 401) with nothing stored, so a
 * client's retry cannot count a `sessions` aggregate twice. From the
 * container's lease of the key this is no call (the lease authenticate()
 * took covers it); the events' store path then does not take it again.
 */
async function countKeyFirst(deps: IngestAccessDependencies, state: RequestState<IngestSlot>, sender: Sender, at: number): Promise<void> {
  try {
    await admitKey(deps.keys, sender, at);
  } catch (error) {
    if (error instanceof KeyRevokedError) throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);
    if (!(error instanceof LimitedError)) throw error;
    note(state, { limitedBy: error.limit });
    throw apiError(429, error.message, { 'Retry-After': String(error.retryAfterSeconds) });
  }
  state.slot.sender = { ...sender, keyCounted: true };
}

/** Where a route reads the key of a request: the ingest API's own places (Authorization, ?key=) unless the route says (the Sentry protocol's). */
export interface AccessOptions<Body> {
  /** Reads the key from the request and, on a body-first route, its body. */
  credential?: (event: ApiEvent, body: Body | undefined) => IngestCredential;
  /** The messages of the credential problems, when the route's places differ from the ingest API's. */
  rejections?: Partial<typeof REJECTIONS>;
  /** The sessions a request carries (a body-first route's body, or the request itself): recorded by the per-address limiter's write (../sessions/session-carry.ts). */
  sessions?: (body: Body | undefined, event: ApiEvent, visitor: string | undefined) => SessionReport | undefined;
  /**
   * Whether the request's events will take the key's per-minute limit once the body is read (a Sentry envelope with
   * events): its sessions then wait for the key's limit (countKeyFirst), so that a refusal there stores nothing.
   */
  keyLimitLater?: (body: Body | undefined) => boolean;
  /** The sessions' user is the request's visitor (the own SDK's, which keeps no id in the browser): its hash is made before the limiter's write. */
  visitorSessions?: boolean;
}

/** The request's origin as the key allows it: its website's, SERVER_ORIGIN for a servers key called without one, or undefined when refused. */
function allowedOrigin(key: PublishableKey, origin: string | undefined): string | undefined {
  if (origin === undefined) return key.servers ? SERVER_ORIGIN : undefined;
  return originAllowed(key.origins, origin) ? origin : undefined;
}

/**
 * Who may report, in the ingest API's order (routes.ts, INGEST_API):
 * key 401 → origin 403 → per-address limits 429. The key is checked from
 * this container's lease of it when it took one within the last second,
 * else with the conditional UpdateItem that takes one (dynamo-ingest-keys.ts);
 * a secret key is recorded as exposed, then refused exactly like an unknown
 * one. Then the Origin header must match the key's list, and the request is
 * counted per key and client address (`limits`: every request; feature
 * requests also per hour) in one conditional UpdateItem: beside the key
 * check when this container already knows the key and its list admits the
 * page (one round), after it otherwise. The deployed function counts a
 * visitor's plain requests in the container and writes only near the limit
 * (docs/capacity.md#the-visitors-limit-counted-in-the-container). The key's own per-minute limit is
 * counted later, once the body says what the request carries
 * (lambda/ingest/receive-events.ts): the refused part of a storm of one
 * error must not spend the key's budget for every other error.
 *
 * A request without an Origin passes only with a key issued with
 * `--servers` (docs/keys.md#servers), and is recorded as from SERVER_ORIGIN.
 *
 * Sets the request state's `caller` (tenant and key id, from the key
 * only), and in its slot `sender` (the key, for its limit) and `client` (the origin and user
 * agent the reports record).
 */
export function ingestAccess<Body = undefined>(
  deps: IngestAccessDependencies,
  limits: readonly AddressLimitName[],
  options: AccessOptions<Body> = {},
): Check<IngestSlot> & BodyCheck<IngestSlot, Body> {
  const now = deps.now ?? Date.now;
  const rejections = { ...REJECTIONS, ...options.rejections };
  return async (event: ApiEvent, state: RequestState<IngestSlot>, body?: Body) => {
    const credential = options.credential
      ? options.credential(event, body)
      : readIngestCredential(
          valuesOf(event.headers, event.multiValueHeaders, 'authorization'),
          valuesOf(event.queryStringParameters, event.multiValueQueryStringParameters, 'key'),
        );
    if (credential.kind === 'secret') {
      const mark = await deps.keys.markExposed(hashSecret(credential.secret), now());
      if (mark.marked) {
        note(state, { exposedKeyId: mark.keyId, exposedFactoryId: mark.factoryId, exposedCount: mark.count }, { [METRIC.exposedSecretKeys]: 1 });
      }
      throw apiError(401, UNKNOWN_INGEST_KEY, CHALLENGE);
    }
    if (credential.kind !== 'publishable') throw apiError(401, rejections[credential.kind], CHALLENGE);

    const keyHash = hashSecret(credential.key);
    const sourceIp = event.requestContext?.identity?.sourceIp;
    const sent = event.headers?.origin;
    const origin = sent === undefined ? undefined : normalizeRequestOrigin(sent);
    const at = now();
    const agent = event.headers?.['user-agent'];
    const cleaned = agent === undefined ? undefined : cleanText(agent, { field: 'User-Agent', lines: 'single-line', max: EVENT_TEXT.userAgent });
    const userAgent = cleaned?.ok && cleaned.text !== '' ? cleaned.text : undefined;
    // One visitor hash per request, made once whether the sessions or the reports ask first.
    let visitor: Promise<string | undefined> | undefined;
    const visitorFor = (factoryId: string) => (visitor ??= visitorOf(deps, state, factoryId, sourceIp, userAgent, at));
    let report: SessionReport | undefined;
    const count = async (key: PublishableKey, from: string): Promise<AddressDecision> => {
      const held = addressLimitsFor(from, limits);
      report = options.sessions?.(body, event, options.visitorSessions ? await visitorFor(key.factoryId) : undefined);
      const carry = report && carryOf(report, key.factoryId, at);
      if (held.length === 0 && !carry) return { admitted: true };
      return deps.limiter.admit({ keyId: key.keyId, addressHash: addressHash(credential.key, sourceIp) }, held, at, carry);
    };
    const known = deps.keys.knownKey(keyHash);
    const knownFrom = known && allowedOrigin(known, origin);
    // Sessions that ride the address count while the key's limit would be taken later (beside events): the key's first.
    const probe = options.keyLimitLater?.(body) ? options.sessions?.(body, event, undefined) : undefined;
    const keyFirst = probe !== undefined && carriesAnything(probe);
    const early = known && knownFrom !== undefined && !keyFirst ? count(known, knownFrom) : undefined;
    // Both calls settle before any answer: no write is left in flight.
    const [checked, counted] = await Promise.allSettled([deps.keys.authenticate(keyHash, at), early]);
    if (checked.status === 'rejected') throw checked.reason;
    const decision = checked.value;
    if (decision.outcome === 'unknown') throw apiError(401, UNKNOWN_INGEST_KEY, CHALLENGE);
    if (decision.outcome === 'revoked') throw apiError(401, REVOKED_INGEST_KEY, CHALLENGE);

    const { key } = decision;
    state.caller = { factoryId: key.factoryId, keyId: key.keyId };
    state.slot.sender = { key, keyHash };
    note(state, { clientNetwork: clientNetwork(sourceIp) });
    const from = allowedOrigin(key, origin);
    if (from === undefined) throw refusedOrigin(state, sent);
    if (counted.status === 'rejected') throw counted.reason;
    if (keyFirst) await countKeyFirst(deps, state, { key, keyHash }, at);
    const address = counted.value ?? (await count(key, from));
    if (address.admitted && report) noteSessions(state, report, address.sessionsDropped ?? 0);
    if (!address.admitted) {
      note(state, { limitedBy: address.limit });
      throw apiError(429, `${ADDRESS_LIMIT_TEXT[address.limit]}: retry after ${address.retryAfterSeconds} s.`, {
        'Retry-After': String(address.retryAfterSeconds),
      });
    }
    state.slot.client = { origin: from, userAgent, visitor: await visitorFor(key.factoryId) };
    note(state, { origin: from });
  };
}
