import type { StoredFeedback } from '../feedback/stored-feedback';
import { readFeedbackEvent, readUserReport } from '../sentry/sentry-feedback';
import type { FeedbackStore } from '../ports';
import type { RequestReceipt } from '../receive-events';
import type { SentryRequest } from '../sentry/sentry-request';
import { METRIC } from '../../infrastructure/observability/names';
import { note, type RequestState } from '../../infrastructure/http/request-state';

/**
 * A Sentry request's feedback (docs/feedback.md), once its key, origin and
 * limits were checked and its events stored: each item read (scrubbed,
 * clipped), the valid ones stored, those that cannot be feedback (no message,
 * no event id) dropped and counted as Sentry's ingest drops them, the envelope
 * still answered 200. The log line holds counts only: never a message, a
 * name or an email.
 */
export async function storeSentryFeedback(
  store: FeedbackStore | undefined,
  request: SentryRequest,
  receipt: RequestReceipt,
  state: RequestState,
): Promise<void> {
  if (request.feedback.length === 0) return;
  const { requestToken, ...fields } = receipt;
  const dropped: Record<string, number> = {};
  const valid: StoredFeedback[] = [];
  request.feedback.forEach(({ source, raw }, index) => {
    // The envelope header's event_id is the feedback's when the envelope carries that one item (as the SDKs send it).
    const reading = source === 'feedback' ? readFeedbackEvent(raw, request.feedback.length === 1 ? request.header.event_id : undefined) : readUserReport(raw);
    if (!reading.ok || !store) {
      const name = `${METRIC.sentryItemsDropped}_${source}`;
      dropped[name] = (dropped[name] ?? 0) + 1;
      return;
    }
    valid.push({ ...fields, ...reading.value, writeToken: `${requestToken}#feedback${index}` });
  });
  const outcomes = valid.length > 0 && store ? await store.putFeedback(valid) : [];
  const stored = outcomes.filter((outcome) => outcome === 'stored').length;
  note(state, { feedback: stored, ...(outcomes.length > stored ? { feedbackDuplicates: outcomes.length - stored } : {}) }, dropped);
}
