import { FILTER_REASONS, type StoredEvent } from '../issues/stored-event';
import type { Sequence, SequencedEvent, SetAsideRecord } from './ports';

/**
 * Which stored events the tally can count (docs/report-issues.md#events-set-aside). No record may stop the
 * counting: one the tally cannot count is set aside, once and for all (the same record is set aside on every
 * delivery: the check is a pure function of the record), counted apart on its factory and named in the log line,
 * and the batch goes on. Its event stays stored, where `reports event` reads it.
 *
 * This checks the fields the tally reads (the grouping rule's, the counts', the feed pages'), each for its kind,
 * so that none can make a later step throw or count a wrong value; what the store could not even read as an event
 * is set aside by the store itself (lambda/infrastructure/store/reports/stream-records.ts), and an event the grouping
 * rule fails on, by ./issue-of-event.ts.
 */

/** Where a record's key says the event is stored: the factory and the eventId. */
export interface EventKey {
  factoryId: string;
  eventId: string;
}

type Check = (value: unknown) => boolean;

const isText: Check = (value) => typeof value === 'string';
const isPresentText: Check = (value) => typeof value === 'string' && value.length > 0;
const isTime: Check = (value) => typeof value === 'string' && Number.isFinite(Date.parse(value));
const isEpochSeconds: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const optional =
  (check: Check): Check =>
  (value) =>
    value === undefined || check(value);
const listOf =
  (check: Check): Check =>
  (value) =>
    Array.isArray(value) && value.every(check);
const shaped =
  (fields: Record<string, Check>): Check =>
  (value) =>
    isRecord(value) && Object.entries(fields).every(([name, check]) => check(value[name]));

const isNumber: Check = (value) => typeof value === 'number' && Number.isFinite(value);
const sdkFrame = shaped({
  function: optional(isText),
  module: optional(isText),
  file: optional(isText),
  line: optional(isNumber),
  column: optional(isNumber),
  contextLine: optional(isText),
  inApp: optional((value) => typeof value === 'boolean'),
});
const resolvedFrame = shaped({
  fn: isText,
  file: isText,
  original: optional(shaped({ source: isText, fn: optional(isText), contextLine: optional(isText) })),
});

/** Each field the tally reads, and what it must be. Every other field is the control room's to show, never read here. */
const FIELDS: Readonly<Record<string, Check>> = {
  factoryId: isPresentText,
  eventId: isPresentText,
  receivedAt: isTime,
  expiresAt: isEpochSeconds,
  type: optional(isText),
  issueId: optional(isText),
  filtered: optional((value) => (FILTER_REASONS as readonly unknown[]).includes(value)),
  release: optional(isText),
  visitor: optional(isText),
  message: optional(isText),
  exception: optional(shaped({ type: optional(isText), value: optional(isText), stack: optional(isText) })),
  fingerprint: optional(listOf(isText)),
  sdkFrames: optional(listOf(sdkFrame)),
  frames: optional(listOf(resolvedFrame)),
};

/**
 * The event to count, or why it is set aside: the first field the tally reads that is missing or of the wrong
 * kind, or a factory or eventId that is not the one its key names (it would be counted where it is not stored).
 */
export function countableEvent(seq: Sequence, key: EventKey, event: Record<string, unknown>): SequencedEvent | SetAsideRecord {
  const setAside = (detail: string): SetAsideRecord => ({ seq, ...key, reason: 'malformed', detail });
  for (const [field, check] of Object.entries(FIELDS)) if (!check(event[field])) return setAside(field);
  if (event.factoryId !== key.factoryId) return setAside('factoryId');
  if (event.eventId !== key.eventId) return setAside('eventId');
  return { seq, event: event as unknown as StoredEvent };
}

/** Whether a reading is a record set aside. */
export const isSetAside = (reading: SequencedEvent | SetAsideRecord): reading is SetAsideRecord => 'reason' in reading;
