import type { FeedbackView } from '../../../ingest/feedback/stored-feedback';
import { REPORT_BOOKKEEPING } from '../schema';

/** The `type` a feedback item carries (byFeed projects it). */
export const FEEDBACK_ITEM_TYPE = 'feedback';
/** The issue a feedback was tied to when it was stored (its event stored before it). Not `issueId`: that would put the item in byIssue. */
export const LINKED_ISSUE_ATTRIBUTE = 'linkedIssueId';

/** A feedback item as read back: bookkeeping dropped (the key, feed, write token, expiry, person key, the server's key id). */
export function feedbackViewOf(item: Record<string, unknown>): FeedbackView {
  const { [LINKED_ISSUE_ATTRIBUTE]: linked, type: _type, keyId: _keyId, ...rest } = item;
  const view: Record<string, unknown> = { ...rest };
  for (const name of REPORT_BOOKKEEPING) delete view[name];
  if (typeof linked === 'string') view.issueId = linked;
  return view as FeedbackView;
}
