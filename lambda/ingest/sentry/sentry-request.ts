import { SENTRY_LIMITS } from '../limits';
import { jsonObjectOf, parseEnvelope } from './envelope';
import { SentryProtocolError } from './protocol-error';
import { addSessionItem, emptySessionReport, type SessionReport } from '../sessions/session-reports';
import type { FeedbackSource } from '../feedback/stored-feedback';

/** One `feedback` or `user_report` item, as sent (read by ../feedback/stored-feedback.ts once the key is checked). */
export interface SentFeedback {
  source: FeedbackSource;
  raw: Record<string, unknown>;
}

/** What a Sentry request carries once its body is framed: the envelope header, its events (as sent), its sessions (read), its feedback (as sent), and the other items dropped, per type. */
export interface SentryRequest {
  header: Record<string, unknown>;
  events: Record<string, unknown>[];
  sessions: SessionReport;
  feedback: SentFeedback[];
  dropped: Record<string, number>;
}

/**
 * The item types the SDKs send besides events, sessions (read: ../sessions/) and feedback (../feedback/): accepted and dropped, counted
 * per type for the metrics; a type not listed is counted as `other`, so the
 * metric's names stay few whatever a client sends.
 */
export const DROPPED_ITEM_TYPES = [
  'transaction',
  'client_report',
  'attachment',
  'user_report',
  'feedback',
  'profile',
  'profile_chunk',
  'replay_event',
  'replay_recording',
  'replay_video',
  'check_in',
  'log',
  'span',
  'otel_log',
  'statsd',
  'metric_meta',
  'raw_security',
] as const;

const droppedName = (type: string): string => ((DROPPED_ITEM_TYPES as readonly string[]).includes(type) ? type : 'other');

/**
 * The dropped types whose payload is a JSON object: each must be one, or
 * the envelope is refused whole (docs/sentry-sdks.md#kept-and-dropped).
 * Binary ones (attachments, recordings), statsd lines and a type not listed
 * (a newer SDK's) are dropped unread.
 */
const JSON_ITEM_TYPES: ReadonlySet<string> = new Set(
  DROPPED_ITEM_TYPES.filter((type) => !['attachment', 'replay_recording', 'replay_video', 'statsd'].includes(type)),
);

/**
 * An envelope's body (already decoded): framed (envelope.ts), every item
 * that should be JSON parsed as a JSON object in UTF-8 before anything is
 * used, the dropped ones too, so bad JSON or bad UTF-8 in one item refuses
 * the envelope whole (400) and nothing of it is stored.
 */
export function readEnvelopeRequest(body: Buffer): SentryRequest {
  const { header, items } = parseEnvelope(body, SENTRY_LIMITS.envelopeItems);
  const events: Record<string, unknown>[] = [];
  const sessions = emptySessionReport();
  const feedback: SentFeedback[] = [];
  const dropped: Record<string, number> = {};
  items.forEach((item, index) => {
    if (item.type === 'feedback' || item.type === 'user_report') {
      feedback.push({ source: item.type, raw: jsonObjectOf(item.payload, `Item ${index + 1} (${item.type})`) });
      return;
    }
    if (item.type === 'session' || item.type === 'sessions') {
      addSessionItem(sessions, item.type, jsonObjectOf(item.payload, `Item ${index + 1} (${item.type})`));
      return;
    }
    // A client report is read (docs/release-health.md#what-the-sdks-dropped) and still counted among the items not stored.
    if (item.type === 'client_report') addSessionItem(sessions, item.type, jsonObjectOf(item.payload, `Item ${index + 1} (${item.type})`));
    if (item.type !== 'event') {
      // Read to be refused when broken, never used: a transaction of `{bad` refuses the event beside it too.
      if (JSON_ITEM_TYPES.has(item.type)) jsonObjectOf(item.payload, `Item ${index + 1} (${item.type.slice(0, 40)})`);
      const name = droppedName(item.type);
      dropped[name] = (dropped[name] ?? 0) + 1;
      return;
    }
    if (events.length === SENTRY_LIMITS.eventsPerEnvelope) {
      throw new SentryProtocolError('too-large', `The envelope has more than ${SENTRY_LIMITS.eventsPerEnvelope} events, the limit: send fewer per envelope.`);
    }
    events.push(jsonObjectOf(item.payload, `Item ${index + 1} (event)`));
  });
  return { header, events, sessions, feedback, dropped };
}

/** The legacy store endpoint's body: one event as JSON (Python's sentry-sdk 1.x sends errors so). */
export function readStoreRequest(body: Buffer): SentryRequest {
  if (body.length === 0) throw new SentryProtocolError('malformed', 'The body is empty: send one event as JSON.');
  return { header: {}, events: [jsonObjectOf(body, 'The event')], sessions: emptySessionReport(), feedback: [], dropped: {} };
}
