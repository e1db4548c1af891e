import { createHash } from 'node:crypto';
import { sketchHashOf } from '../../kernel/distinct-sketch';
import type { SessionAggregate, SessionReport, SessionUpdate } from './session-reports';

/**
 * How a request's sessions ride on the one write every page request already
 * makes, its visitor's limiter item (docs/release-health.md#how-a-session-is-recorded),
 * and how the tally reads them back from that item's stream record.
 *
 * A session's update becomes the statuses it reached, each an element
 * `<session key><status>` added to a string set of the visitor's item:
 * adding an element already there changes nothing, so an update resent (the
 * SDK's retry, a page sending the same state twice) reaches nothing new.
 * The tally counts the elements the write added: those of the record's new
 * image not in its old one. So each status of a session counts once, from the
 * one write that first reached it; a stream record delivered again is held by
 * the tally's marks. The sets rotate every 20 minutes over three slots (the
 * write that fills one empties the next), so a visitor's item holds at most
 * about an hour of sessions, and at most SLOT_CAP elements a slot.
 *
 * A server's aggregates (Sentry's `sessions`: counts, no session ids) are
 * carried as rows with the write's request token, counted once by the
 * record whose write set them.
 */

/** A status a session reached, as a counter names it. */
export type ReachedStatus = 'started' | 'errored' | 'crashed' | 'abnormal' | 'exited';

/** The one character each status is written as after its session key. */
export const STATUS_CODES: Readonly<Record<ReachedStatus, string>> = { started: 's', errored: 'e', crashed: 'c', abnormal: 'a', exited: 'x' };
const STATUS_OF_CODE = new Map(Object.entries(STATUS_CODES).map(([status, code]) => [code, status as ReachedStatus]));

/** Characters of a session key: 48 bits of its id's SHA-256, far from colliding among one visitor's sessions. */
export const SESSION_KEY_LENGTH = 8;
/** Minutes a slot of reached statuses lasts; three slots are kept. */
export const SLOT_MINUTES = 20;
export const SLOT_COUNT = 3;
/** Elements one slot holds at most: a visitor past it (30 page loads in 20 minutes, or a sender making sessions up) has the rest dropped, not stored. */
export const SLOT_CAP = 60;
/** Session updates and aggregate rows one request may carry; more are dropped and counted. */
export const UPDATES_PER_REQUEST = 20;
export const AGGREGATES_PER_REQUEST = 100;
/** Discarded-count rows (reason and category pairs) one request may carry. */
export const DISCARDS_PER_REQUEST = 50;
/** A session's start further from its receipt than this is read as started at receipt (a client's clock can be anything). */
const START_SKEW_MS = 5 * 24 * 3600_000;
const HOUR_MS = 3600_000;

/** The session key of a session id. */
export const sessionKeyOf = (sid: string): string => createHash('sha256').update(sid).digest('base64url').slice(0, SESSION_KEY_LENGTH);

/** A user's hash for the release's distinct users: the factory's own, so one id in two factories is two users. Never the id itself. */
export const userHashOf = (factoryId: string, did: string): string => sketchHashOf(`${factoryId}\n${did}`);

/** The statuses one update says its session reached: `init` starts it; an error, or a crash, makes it errored; an end names its end; an unhandled error is a crash. */
export function statusesReached(update: Pick<SessionUpdate, 'init' | 'status' | 'errors'>): ReachedStatus[] {
  const reached: ReachedStatus[] = [];
  if (update.init) reached.push('started');
  const crashed = update.status === 'crashed' || update.status === 'unhandled';
  if (update.errors > 0 || update.status === 'errored' || crashed) reached.push('errored');
  if (crashed) reached.push('crashed');
  if (update.status === 'abnormal' || update.status === 'exited') reached.push(update.status);
  return reached;
}

/** The slot a write at `nowMs` adds to; the write also empties the next one, the oldest. */
export const slotAt = (nowMs: number): number => Math.floor(nowMs / (SLOT_MINUTES * 60_000)) % SLOT_COUNT;

/** The hour (epoch hours) a session counts in: its start's, unless the start is too far from its receipt to believe. */
export function hourOf(startedMs: number, nowMs: number): number {
  const believed = Math.abs(startedMs - nowMs) <= START_SKEW_MS ? startedMs : nowMs;
  return Math.floor(believed / HOUR_MS);
}

/** What a session's statuses count under: its release and environment, the hour it started, its user's hash. */
export interface SessionDetail {
  hour: number;
  release: string;
  environment: string;
  user?: string;
}

/** An aggregate row as carried: its hour, counts, release, environment and user's hash. */
export type AggregateRow = SessionDetail & Pick<SessionAggregate, 'exited' | 'errored' | 'crashed' | 'abnormal'>;

/** What one request adds to its visitor's item. */
export interface SessionCarry {
  factoryId: string;
  slot: number;
  /** Elements `<session key><status code>` to add to the slot's set. */
  elements: string[];
  /** Each session key's detail, encoded (encodeDetail), for the tally to count its new elements under. */
  details: Record<string, string>;
  /** Aggregate rows, encoded. */
  aggregates: string[];
  /** What the SDK said it discarded: rows `[day, reason, category, quantity]`, encoded (counted per key and day). */
  discards: string[];
  /** Updates and rows over the request's caps, dropped. */
  dropped: number;
}

/** A carried text as the JSON array it encodes; undefined for anything else (damaged or foreign values count nothing). */
function arrayOf(text: unknown): unknown[] | undefined {
  if (typeof text !== 'string') return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

export const encodeDetail = ({ hour, release, environment, user }: SessionDetail): string => JSON.stringify([hour, user ?? '', environment, release]);

/** A detail as encodeDetail wrote it; undefined for anything else (a damaged or foreign value is never counted). */
export function decodeDetail(text: unknown): SessionDetail | undefined {
  const value = arrayOf(text);
  if (!value || value.length < 4) return undefined;
  const [hour, user, environment, release] = value as unknown[];
  if (!Number.isSafeInteger(hour) || typeof user !== 'string' || typeof environment !== 'string' || typeof release !== 'string') return undefined;
  return { hour: hour as number, release, environment, ...(user === '' ? {} : { user }) };
}

const encodeRow = (row: AggregateRow): string => JSON.stringify([encodeDetail(row), row.exited, row.errored, row.crashed, row.abnormal]);

/** A row as encodeRow wrote it; undefined for anything else. */
export function decodeRow(text: unknown): AggregateRow | undefined {
  const value = arrayOf(text);
  if (value?.length !== 5) return undefined;
  const detail = decodeDetail(value[0]);
  const counts = value.slice(1) as unknown[];
  if (!detail || counts.some((count) => !Number.isSafeInteger(count) || (count as number) < 0)) return undefined;
  const [exited, errored, crashed, abnormal] = counts as number[];
  return { ...detail, exited: exited as number, errored: errored as number, crashed: crashed as number, abnormal: abnormal as number };
}

/** The carry of a request's sessions for one factory at `nowMs`; undefined when it has none. */
/** Whether a report has anything for the limiter's write to record (a Sentry envelope of events only has none). */
export const carriesAnything = (report: SessionReport): boolean => report.updates.length > 0 || report.aggregates.length > 0 || report.discarded.length > 0;

export function carryOf(report: SessionReport, factoryId: string, nowMs: number): SessionCarry | undefined {
  if (!carriesAnything(report)) return undefined;
  const elements = new Set<string>();
  const details: Record<string, string> = {};
  for (const update of report.updates.slice(0, UPDATES_PER_REQUEST)) {
    const key = sessionKeyOf(update.sid);
    for (const status of statusesReached(update)) elements.add(`${key}${STATUS_CODES[status]}`);
    const user = update.did === undefined ? undefined : userHashOf(factoryId, update.did);
    details[key] = encodeDetail({ hour: hourOf(update.startedMs, nowMs), release: update.release, environment: update.environment, ...(user ? { user } : {}) });
  }
  const aggregates = report.aggregates.slice(0, AGGREGATES_PER_REQUEST).map((row) =>
    encodeRow({
      hour: hourOf(row.startedMs, nowMs),
      release: row.release,
      environment: row.environment,
      ...(row.did === undefined ? {} : { user: userHashOf(factoryId, row.did) }),
      exited: row.exited,
      errored: row.errored,
      crashed: row.crashed,
      abnormal: row.abnormal,
    }),
  );
  const dropped = Math.max(0, report.updates.length - UPDATES_PER_REQUEST) + Math.max(0, report.aggregates.length - AGGREGATES_PER_REQUEST);
  const day = new Date(nowMs).toISOString().slice(0, 10);
  const discards = report.discarded.slice(0, DISCARDS_PER_REQUEST).map(({ reason, category, quantity }) => JSON.stringify([day, reason, category, quantity]));
  return { factoryId, slot: slotAt(nowMs), elements: [...elements].sort(), details, aggregates, discards, dropped };
}

/** A UTC day as `YYYY-MM-DD`, the form carryOf writes. */
const isUtcDay = (day: string): boolean => {
  const ms = Date.parse(`${day}T00:00:00Z`);
  return day.length === 10 && Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === day;
};

/** A discarded-count row as carried: the key's UTC day, reason, category, quantity; undefined for anything else. */
export function decodeDiscard(text: unknown): { day: string; reason: string; category: string; quantity: number } | undefined {
  const value = arrayOf(text);
  if (value?.length !== 4) return undefined;
  const [day, reason, category, quantity] = value as unknown[];
  if (typeof day !== 'string' || !isUtcDay(day) || typeof reason !== 'string' || typeof category !== 'string') return undefined;
  if (!Number.isSafeInteger(quantity) || (quantity as number) <= 0) return undefined;
  return { day, reason, category, quantity: quantity as number };
}

/** One status newly reached by one session (or a row's count of them), under its detail: what the tally counts. */
export interface SessionCount extends SessionDetail {
  status: ReachedStatus;
  count: number;
}

/** The counts of the elements a write added (in `after`, not in `before`), each under its session's detail; elements with no readable detail are left out. */
export function countsOfNewElements(before: ReadonlySet<string>, after: Iterable<string>, details: Readonly<Record<string, unknown>>): SessionCount[] {
  const counts: SessionCount[] = [];
  for (const element of after) {
    if (before.has(element) || element.length !== SESSION_KEY_LENGTH + 1) continue;
    const status = STATUS_OF_CODE.get(element.slice(SESSION_KEY_LENGTH));
    const detail = decodeDetail(details[element.slice(0, SESSION_KEY_LENGTH)]);
    if (status && detail) counts.push({ ...detail, status, count: 1 });
  }
  return counts;
}

/**
 * A row's counts by the statuses a session reaches: each row's sessions started; its errored and crashed ones
 * errored (a crash is an error); each final status as itself. Sentry's rows count each session once, by how it ended.
 */
export function countsOfRow(row: AggregateRow): SessionCount[] {
  const { exited, errored, crashed, abnormal, ...detail } = row;
  const counts: [ReachedStatus, number][] = [
    ['started', exited + errored + crashed + abnormal],
    ['errored', errored + crashed],
    ['crashed', crashed],
    ['abnormal', abnormal],
    ['exited', exited],
  ];
  return counts.filter(([, count]) => count > 0).map(([status, count]) => ({ ...detail, status, count }));
}
