import { cleanText } from '../../kernel/free-text';
import { scrubText } from '../scrub/scrubber';
import { RELEASE_MAX } from './release-name';

/**
 * What the SDKs say of their sessions (docs/release-health.md#what-arrives),
 * read from a Sentry `session` or `sessions` item or the own SDK's body
 * alike: nothing here is stored as sent; it becomes the statuses a session
 * reached (./session-carry.ts) and counts per release and hour.
 */

/** A session's status as an update states it (Sentry's protocol: `ok` while it lives). */
export type UpdateStatus = 'ok' | 'exited' | 'crashed' | 'abnormal' | 'errored' | 'unhandled';

/** One update of one session (Sentry's `session` item). */
export interface SessionUpdate {
  sid: string;
  /** The user (`did`) as sent: hashed before it goes anywhere (./session-carry.ts), never stored. */
  did?: string;
  /** The session's first update: it counts the session as started. */
  init: boolean;
  status: UpdateStatus;
  errors: number;
  /** When the session started, epoch ms: the hour it counts in. */
  startedMs: number;
  release: string;
  environment: string;
}

/** A server's sessions of one minute, already counted by their final status (Sentry's `sessions` item). */
export interface SessionAggregate {
  startedMs: number;
  did?: string;
  exited: number;
  errored: number;
  crashed: number;
  abnormal: number;
  release: string;
  environment: string;
}

/** What an SDK says it discarded (a `client_report` item's `discarded_events`), by reason and category. */
export interface DiscardedCount {
  reason: string;
  category: string;
  quantity: number;
}

/** A request's sessions and client reports, and how many session items it sent that could not be read (dropped, counted for the log line). */
export interface SessionReport {
  updates: SessionUpdate[];
  aggregates: SessionAggregate[];
  discarded: DiscardedCount[];
  invalid: number;
}

export const emptySessionReport = (): SessionReport => ({ updates: [], aggregates: [], discarded: [], invalid: 0 });

/** The reasons and categories Sentry's SDKs name (develop.sentry.dev, client reports); anything else is counted as `other`, so a sender cannot make names up. */
export const DISCARD_REASONS: readonly string[] = [
  'queue_overflow',
  'cache_overflow',
  'buffer_overflow',
  'ratelimit_backoff',
  'network_error',
  'sample_rate',
  'before_send',
  'event_processor',
  'insufficient_data',
  'backpressure',
  'send_error',
  'internal_sdk_error',
];
export const DISCARD_CATEGORIES: readonly string[] = [
  'error',
  'default',
  'transaction',
  'span',
  'session',
  'attachment',
  'profile',
  'replay',
  'security',
  'monitor',
  'feedback',
  'log_item',
  'log_byte',
];
/** Rows read from one client report, and the largest quantity one row may say. */
const DISCARDS_PER_ITEM = 50;
const DISCARD_QUANTITY_MAX = 1_000_000;

const known = (value: unknown, list: readonly string[]): string => (typeof value === 'string' && list.includes(value) ? value : 'other');

/** A `client_report` item's discarded counts, one row per reason and category (summed); unreadable rows are left out. */
export function readClientReport(raw: unknown): DiscardedCount[] {
  if (!isObject(raw) || !Array.isArray(raw.discarded_events)) return [];
  const sums = new Map<string, DiscardedCount>();
  for (const row of (raw.discarded_events as unknown[]).slice(0, DISCARDS_PER_ITEM)) {
    if (!isObject(row) || !Number.isSafeInteger(row.quantity) || (row.quantity as number) <= 0 || (row.quantity as number) > DISCARD_QUANTITY_MAX) continue;
    const reason = known(row.reason, DISCARD_REASONS);
    const category = known(row.category, DISCARD_CATEGORIES);
    const id = `${reason} ${category}`;
    const sum = sums.get(id) ?? { reason, category, quantity: 0 };
    sum.quantity += row.quantity as number;
    sums.set(id, sum);
  }
  return [...sums.values()];
}

/** Sentry's default environment, which its SDKs send when none is set. */
export const DEFAULT_ENVIRONMENT = 'production';
/** Characters of an environment kept (Sentry's own limit is 64). */
export const ENVIRONMENT_MAX = 64;
/** A JSON object (not an array, not null). Here rather than the ingest's payloads.ts: that folder imports this one. */
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Characters of a session id or user read (a UUID is 36): a longer one is not a session's. */
const ID_MAX = 128;
/** Aggregate rows read from one `sessions` item: a server's minute buckets, one per minute and user at most. */
export const AGGREGATES_PER_ITEM = 100;
/** A count in one aggregate row: more sessions than this in one minute of one server is not a count. */
const AGGREGATE_COUNT_MAX = 1_000_000;

/**
 * `unhandled`: @sentry/browser 10 and later say so of a session with an unhandled error that did not end the page
 * (older SDKs, and the own SDK, say `crashed`); counted as a crash here (session-carry.ts, statusesReached).
 */
const UPDATE_STATUSES: ReadonlySet<string> = new Set(['ok', 'exited', 'crashed', 'abnormal', 'errored', 'unhandled']);

/** A release or environment as stored: one line, controls out, scrubbed as any text an SDK sends, clipped; undefined when blank or not text. */
function label(value: unknown, field: string, max: number): string | undefined {
  if (typeof value !== 'string') return undefined;
  const checked = cleanText(value, { field, lines: 'single-line', max, scrub: (text) => scrubText(text, {}) });
  return checked.ok && checked.text !== '' ? checked.text : undefined;
}

/** An id (sid, did) as text; numbers as Sentry's SDKs may send a user id. */
function idOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  return text === '' || text.length > ID_MAX ? undefined : text;
}

/** An ISO 8601 time or epoch seconds, as epoch ms; undefined when neither. */
function timeOf(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) return Math.round(value * 1000);
  if (typeof value !== 'string' || value.length > 40) return undefined;
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

const countOf = (value: unknown): number | undefined =>
  value === undefined || value === null
    ? 0
    : Number.isSafeInteger(value) && (value as number) >= 0 && (value as number) <= AGGREGATE_COUNT_MAX
      ? (value as number)
      : undefined;

/** The release and environment of `attrs` (the envelope header's `attrs` is not Sentry's; only the item's count). */
function attrsOf(raw: Record<string, unknown>): { release: string; environment: string } | undefined {
  const attrs = isObject(raw.attrs) ? raw.attrs : {};
  const release = label(attrs.release, 'release', RELEASE_MAX);
  if (release === undefined) return undefined;
  return { release, environment: label(attrs.environment, 'environment', ENVIRONMENT_MAX) ?? DEFAULT_ENVIRONMENT };
}

/** One `session` item's payload as an update, or undefined when it is not one (no sid, no release, no start, an unknown status). */
export function readSessionUpdate(raw: unknown): SessionUpdate | undefined {
  if (!isObject(raw)) return undefined;
  const attrs = attrsOf(raw);
  const sid = idOf(raw.sid);
  const startedMs = timeOf(raw.started);
  const status = raw.status === undefined ? 'ok' : raw.status;
  const errors = raw.errors === undefined ? 0 : raw.errors;
  if (!attrs || sid === undefined || startedMs === undefined || typeof status !== 'string' || !UPDATE_STATUSES.has(status)) return undefined;
  if (!Number.isSafeInteger(errors) || (errors as number) < 0) return undefined;
  const did = idOf(raw.did);
  return { sid, init: raw.init === true, status: status as UpdateStatus, errors: errors as number, startedMs, ...attrs, ...(did === undefined ? {} : { did }) };
}

/** One `sessions` item's payload as its rows; a row that cannot be read is left out and counted. */
export function readSessionAggregates(raw: unknown): { aggregates: SessionAggregate[]; invalid: number } {
  if (!isObject(raw) || !Array.isArray(raw.aggregates)) return { aggregates: [], invalid: 1 };
  const attrs = attrsOf(raw);
  if (!attrs) return { aggregates: [], invalid: 1 };
  const aggregates: SessionAggregate[] = [];
  let invalid = Math.max(0, raw.aggregates.length - AGGREGATES_PER_ITEM);
  for (const row of (raw.aggregates as unknown[]).slice(0, AGGREGATES_PER_ITEM)) {
    const startedMs = isObject(row) ? timeOf(row.started) : undefined;
    const counts = isObject(row) ? [row.exited, row.errored, row.crashed, row.abnormal, row.unhandled].map(countOf) : [];
    if (!isObject(row) || startedMs === undefined || counts.some((count) => count === undefined)) {
      invalid += 1;
      continue;
    }
    // Sessions ended by an unhandled error (`unhandled`, SDKs 10 and later) count as crashed, as a `session` item's.
    const [exited = 0, errored = 0, crashedOnly = 0, abnormal = 0, unhandled = 0] = counts as number[];
    const crashed = crashedOnly + unhandled;
    if (exited + errored + crashed + abnormal === 0) continue;
    const did = idOf(row.did);
    aggregates.push({ startedMs, exited, errored, crashed, abnormal, ...attrs, ...(did === undefined ? {} : { did }) });
  }
  return { aggregates, invalid };
}

/** Adds one item's sessions or client report to a request's report (`type`: the envelope item's). */
export function addSessionItem(report: SessionReport, type: 'session' | 'sessions' | 'client_report', payload: unknown): void {
  if (type === 'client_report') {
    report.discarded.push(...readClientReport(payload));
    return;
  }
  if (type === 'session') {
    const update = readSessionUpdate(payload);
    if (update) report.updates.push(update);
    else report.invalid += 1;
    return;
  }
  const { aggregates, invalid } = readSessionAggregates(payload);
  report.aggregates.push(...aggregates);
  report.invalid += invalid;
}
