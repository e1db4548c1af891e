import { normalizeEmail } from '../../kernel/email';
import { cleanText, type TextLines } from '../../kernel/free-text';
import { FEEDBACK_TEXT, type FeedbackInput, type FeedbackSource } from '../feedback/stored-feedback';
import { Scrubber } from '../scrub/scrubber';
import { eventUuidOf } from './event-map';

/**
 * A Sentry SDK's feedback read (docs/feedback.md): a `feedback` item's event
 * or a legacy `user_report`, scrubbed like an event's text and clipped; what
 * cannot be feedback is dropped with the reason, as Sentry drops it, never
 * refusing the envelope.
 */
export type FeedbackReading = { ok: true; value: FeedbackInput } | { ok: false; reason: string };

/** An own property only: a name a sender chose (`constructor`, `__proto__`) is never looked up on Object.prototype. */
const own = (object: unknown, name: string): unknown =>
  typeof object === 'object' && object !== null && !Array.isArray(object) && Object.hasOwn(object, name)
    ? (object as Record<string, unknown>)[name]
    : undefined;

function text(value: unknown, lines: TextLines, max: number, scrub: (text: string) => string): string | undefined {
  if (typeof value !== 'string') return undefined;
  const checked = cleanText(value, { field: 'feedback', lines, max, scrub });
  return checked.ok && checked.text !== '' ? checked.text : undefined;
}

/** The email in its stored form, or none: an address that is not one reaches no contact and no person key. */
function emailOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const checked = normalizeEmail(value);
  return checked.ok ? checked.email : undefined;
}

interface Said {
  id: unknown;
  message: unknown;
  email: unknown;
  name: unknown;
  url?: unknown;
  associatedEventId?: unknown;
}

function feedbackOf(source: FeedbackSource, said: Said): FeedbackReading {
  const feedbackId = eventUuidOf(said.id);
  if (feedbackId === undefined) return { ok: false, reason: 'no event_id of 32 hex digits' };
  const scrubber = new Scrubber();
  const message = text(said.message, 'multi-line', FEEDBACK_TEXT.message, (value) => scrubber.text(value));
  if (message === undefined) return { ok: false, reason: 'no message' };
  const name = text(said.name, 'single-line', FEEDBACK_TEXT.name, (value) => scrubber.emailsIn(value));
  const url = text(said.url, 'single-line', FEEDBACK_TEXT.url, (value) => scrubber.text(value));
  const email = emailOf(said.email);
  const associatedEventId = eventUuidOf(said.associatedEventId);
  const reporter = { ...(email === undefined ? {} : { email }), ...(name === undefined ? {} : { name }) };
  const scrubbed = scrubber.replaced;
  return {
    ok: true,
    value: {
      feedbackId,
      source,
      message,
      ...(associatedEventId === undefined ? {} : { associatedEventId }),
      ...(url === undefined ? {} : { url }),
      ...(Object.keys(reporter).length === 0 ? {} : { reporter }),
      ...(scrubbed === undefined ? {} : { scrubbed }),
    },
  };
}

/**
 * A `feedback` item's event: its words under contexts.feedback; the email is
 * `contact_email`, else the event's user's (as Sentry's widget falls back to), the page `url`, else the event's request's;
 * its id the event's `event_id`, else the envelope header's.
 */
export function readFeedbackEvent(raw: Record<string, unknown>, headerEventId?: unknown): FeedbackReading {
  const context = own(own(raw, 'contexts'), 'feedback');
  if (context === undefined) return { ok: false, reason: 'no contexts.feedback' };
  return feedbackOf('feedback', {
    id: own(raw, 'event_id') ?? headerEventId,
    message: own(context, 'message'),
    email: own(context, 'contact_email') ?? own(own(raw, 'user'), 'email'),
    name: own(context, 'name') ?? own(own(raw, 'user'), 'name'),
    // The widget writes the page into the context; captureFeedback leaves it to the event's request (HttpContext).
    url: own(context, 'url') ?? own(own(raw, 'request'), 'url'),
    associatedEventId: own(context, 'associated_event_id'),
  });
}

/** A legacy `user_report` item: one report per event, keyed (and tied) by that event's id. */
export function readUserReport(raw: Record<string, unknown>): FeedbackReading {
  const eventId = own(raw, 'event_id');
  return feedbackOf('user_report', {
    id: eventId,
    message: own(raw, 'comments'),
    email: own(raw, 'email'),
    name: own(raw, 'name'),
    associatedEventId: eventId,
  });
}
