import { SDK_CONTEXT_FRAMES, SDK_CONTEXT_LINES, type SdkFrame } from '../issues/stored-event';
import { ISO_TIME, isObject } from '../payloads';
import { MAX_DEBUG_IDS, MAX_FINGERPRINT_PARTS, MAX_TAGS } from '../limits';
import { normalizeEmail } from '../../kernel/email';

/**
 * A Sentry event (https://develop.sentry.dev/sdk/data-model/event-payloads/)
 * in this service's own event shape (docs/ingest-api.md#bodies), before it
 * is read like any other event (payloads.ts readEvent: cleaned, scrubbed,
 * clipped). What has no place here is dropped (docs/sentry-sdks.md#kept-and-dropped).
 * Pure: no I/O.
 */

/** A frame as the SDK sent it, not yet cleaned (sentry-event.ts cleans it): the stored frame's shape. */
export type RawFrame = SdkFrame;

export interface MappedEvent {
  /** The own wire shape: eventId, type, timestamp, message, exception, pageUrl, release, tags, reporter, fingerprint, debugIds. */
  event: Record<string, unknown>;
  /** The thrown exception's frames, top first. */
  frames: RawFrame[];
}

/** Frames kept per event, from the top: deeper ones are the runtime's plumbing. */
export const MAX_FRAMES = 50;
const DEBUG_ID = /^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i;

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
const int = (value: unknown): number | undefined => (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined);

/** Sentry's 32 hex digits (or a UUID) as the UUID the own events use: the same event id dedupes either way. */
export function eventUuidOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const hex = value.replace(/-/g, '').toLowerCase();
  if (!/^[0-9a-f]{32}$/.test(hex)) return undefined;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** `timestamp`: seconds since the epoch or an RFC 3339 string; anything else is dropped (the receive time remains). */
function timestampOf(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isFinite(value) && value > 0) {
    const date = new Date(value * 1000);
    return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
  }
  if (typeof value !== 'string') return undefined;
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value) ? value : `${value}Z`;
  return ISO_TIME.test(zoned) && Number.isFinite(Date.parse(zoned)) ? zoned : undefined;
}

/** `message`: a string, or `{formatted, message}`; else `logentry`'s. */
function messageOf(raw: Record<string, unknown>): string | undefined {
  for (const value of [raw.message, raw.logentry]) {
    if (typeof value === 'string') return value;
    if (isObject(value)) {
      const text = str(value.formatted) ?? str(value.message);
      if (text !== undefined) return text;
    }
  }
  return undefined;
}

interface SentryException {
  type?: string;
  value?: string;
  module?: string;
  synthetic: boolean;
  /** Top first. */
  frames: RawFrame[];
}

/** `pre_context` / `post_context`: the SDK_CONTEXT_LINES lines nearest the frame's line, strings only. */
function contextLines(value: unknown, nearestLast: boolean): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const lines = (value as unknown[]).filter((line): line is string => typeof line === 'string');
  const kept = nearestLast ? lines.slice(-SDK_CONTEXT_LINES) : lines.slice(0, SDK_CONTEXT_LINES);
  return kept.length === 0 ? undefined : kept;
}

function frameOf(raw: unknown): RawFrame | undefined {
  if (!isObject(raw)) return undefined;
  // Only the fields sent, in the stored order: no `undefined` field set and deleted, which leaves V8 a slow object.
  const frame: RawFrame = {};
  const fn = str(raw.function);
  if (fn !== undefined) frame.function = fn;
  const module = str(raw.module);
  if (module !== undefined) frame.module = module;
  const file = str(raw.abs_path) ?? str(raw.filename);
  if (file !== undefined) frame.file = file;
  const line = int(raw.lineno);
  if (line !== undefined) frame.line = line;
  const column = int(raw.colno);
  if (column !== undefined) frame.column = column;
  const contextLine = str(raw.context_line);
  if (contextLine !== undefined) {
    frame.contextLine = contextLine;
    // The lines around only with the line itself, as the page shows them together.
    const pre = contextLines(raw.pre_context, true);
    if (pre !== undefined) frame.pre = pre;
    const post = contextLines(raw.post_context, false);
    if (post !== undefined) frame.post = post;
  }
  if (typeof raw.in_app === 'boolean') frame.inApp = raw.in_app;
  return frame;
}

/** The exception values, the one thrown last (Sentry lists causes first, the thrown exception last). */
function exceptionsOf(raw: Record<string, unknown>): SentryException[] {
  const container = raw.exception;
  const values = Array.isArray(container) ? container : isObject(container) && Array.isArray(container.values) ? container.values : [];
  const exceptions: SentryException[] = [];
  for (const value of values as unknown[]) {
    if (!isObject(value)) continue;
    const stacktrace = isObject(value.stacktrace) ? value.stacktrace : undefined;
    const frames = (Array.isArray(stacktrace?.frames) ? (stacktrace.frames as unknown[]) : [])
      .map(frameOf)
      .filter((frame): frame is RawFrame => frame !== undefined);
    const mechanism = isObject(value.mechanism) ? value.mechanism : undefined;
    exceptions.push({
      type: str(value.type),
      value: str(value.value),
      module: str(value.module),
      synthetic: mechanism?.synthetic === true,
      frames: frames.reverse(),
    });
  }
  return exceptions.reverse();
}

const frameLine = (frame: RawFrame): string => {
  const at = [frame.file ?? frame.module ?? '?', frame.line, frame.column].filter((part) => part !== undefined).join(':');
  return `    at ${frame.function || '<anonymous>'} (${at})`;
};

/** The chain as one stack text, thrown exception first, each cause under "Caused by:" (what the control room shows). */
function stackOf(exceptions: readonly SentryException[]): string | undefined {
  const blocks = exceptions.map((exception, index) => {
    const head = [exception.type, exception.value].filter(Boolean).join(': ');
    return [`${index === 0 ? '' : 'Caused by: '}${head}`, ...exception.frames.slice(0, MAX_FRAMES).map(frameLine)].join('\n');
  });
  const text = blocks.join('\n');
  return text.trim() === '' ? undefined : text;
}

/** `tags`: an object or a list of pairs; numbers and booleans as text, other values dropped; `environment` first. */
function tagsOf(raw: Record<string, unknown>): Record<string, string> | undefined {
  const entries: [string, string][] = [];
  const environment = str(raw.environment);
  if (environment !== undefined && environment !== '') entries.push(['environment', environment]);
  const source = raw.tags;
  const pairs: unknown[][] = Array.isArray(source) ? (source.filter(Array.isArray) as unknown[][]) : isObject(source) ? Object.entries(source) : [];
  for (const [name, value] of pairs) {
    if (typeof name !== 'string' || name === 'environment') continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') entries.push([name, String(value)]);
  }
  return entries.length === 0 ? undefined : Object.fromEntries(entries.slice(0, MAX_TAGS));
}

/** A user field that is an e-mail address as a whole (`username: "ada@example.com"`), else undefined. */
const asEmail = (value: unknown): string | undefined => {
  const text = typeof value === 'number' ? String(value) : str(value);
  return text !== undefined && normalizeEmail(text).ok ? text : undefined;
};

/**
 * `user` as the reporter: its email, else the first of username, id and
 * name that is an e-mail address (any of them can be: the person is keyed to
 * it, docs/privacy.md#a-person-in-any-field), and its name (or username);
 * its address and the rest are dropped. A name that is an address is read
 * as such by the payload reader (payloads.ts).
 */
function reporterOf(raw: Record<string, unknown>): Record<string, string> | undefined {
  const user = raw.user;
  if (!isObject(user)) return undefined;
  const email = str(user.email) ?? [user.username, user.id, user.name].map(asEmail).find((found) => found !== undefined);
  const name = str(user.name) ?? str(user.username);
  const reporter = { ...(email ? { email } : {}), ...(name ? { name } : {}) };
  return Object.keys(reporter).length === 0 ? undefined : reporter;
}

/** `fingerprint`: used as sent unless it extends Sentry's default ("{{ default }}"), which this service's own rule then stands for. */
function fingerprintOf(raw: Record<string, unknown>): string[] | undefined {
  const parts = raw.fingerprint;
  if (!Array.isArray(parts) || parts.length === 0) return undefined;
  const texts = parts.map((part) => (typeof part === 'string' ? part : typeof part === 'number' ? String(part) : ''));
  if (texts.some((part) => /^\{\{\s*default\s*\}\}$/.test(part))) return undefined;
  return texts.slice(0, MAX_FINGERPRINT_PARTS);
}

/**
 * `debug_meta.images` of type sourcemap (what the bundler plugins inject):
 * script URL → debug id, for source-map resolution, as the own SDK's
 * `debugIds`: the first MAX_DEBUG_IDS whose id is a UUID (with or without
 * dashes, given with them), so that the payload reader (payloads.ts), which
 * refuses more or a malformed id, keeps the event; it cleans, scrubs and
 * clips them as any own event's.
 */
export function debugIdsOf(raw: Record<string, unknown>): Record<string, string> | undefined {
  const meta = raw.debug_meta;
  const images = isObject(meta) && Array.isArray(meta.images) ? (meta.images as unknown[]) : [];
  const ids: [string, string][] = [];
  for (const image of images) {
    if (!isObject(image) || image.type !== 'sourcemap') continue;
    const file = str(image.code_file);
    const id = str(image.debug_id);
    if (file && id && DEBUG_ID.test(id)) ids.push([file, eventUuidOf(id) ?? id]);
  }
  return ids.length === 0 ? undefined : Object.fromEntries(ids.slice(0, MAX_DEBUG_IDS));
}

/** The Sentry event in the own shape; `fallbackId` is the envelope header's event_id (used when the event has none). */
export function mapSentryEvent(raw: Record<string, unknown>, fallbackId?: unknown): MappedEvent {
  const exceptions = exceptionsOf(raw);
  const thrown = exceptions[0];
  // captureMessage with attachStacktrace sends a synthetic exception: a message, not an error.
  const synthetic = thrown?.synthetic === true;
  const message = messageOf(raw);
  const request = isObject(raw.request) ? raw.request : undefined;
  const event: Record<string, unknown> = {
    eventId: eventUuidOf(raw.event_id) ?? eventUuidOf(fallbackId) ?? raw.event_id,
    type: thrown && !synthetic ? 'error' : 'message',
    timestamp: timestampOf(raw.timestamp),
    message,
    exception: thrown && !synthetic ? { type: thrown.type ?? thrown.module, value: thrown.value, stack: stackOf(exceptions) } : undefined,
    pageUrl: str(request?.url),
    release: str(raw.release),
    tags: tagsOf(raw),
    reporter: reporterOf(raw),
    fingerprint: fingerprintOf(raw),
    debugIds: debugIdsOf(raw),
  };
  if (event.message === undefined && event.exception === undefined && thrown)
    event.message = [thrown.type, thrown.value].filter(Boolean).join(': ') || undefined;
  return { event, frames: thrown && !synthetic ? withContextWhereShown(thrown.frames.slice(0, MAX_FRAMES)) : [] };
}

/** The lines around are kept for the top SDK_CONTEXT_FRAMES frames the SDK did not mark `in_app: false`, and dropped elsewhere: what is shown, compactly. */
function withContextWhereShown(frames: RawFrame[]): RawFrame[] {
  let kept = 0;
  return frames.map((frame) => {
    if (frame.pre === undefined && frame.post === undefined) return frame;
    if (frame.inApp !== false && kept < SDK_CONTEXT_FRAMES) {
      kept++;
      return frame;
    }
    const { pre: _pre, post: _post, ...rest } = frame;
    return rest;
  });
}
