import type { FeedbackView } from '../../../../lambda/ingest/feedback/stored-feedback';
import { appLink, summary, text, time } from '../display';
import type { RouteContext } from '../context';
import { html, type Html } from '../html';

/** The newest feedback an issue's page shows. */
const ISSUE_FEEDBACK_SHOWN = 20;

/**
 * An issue's feedback section, asked of `feedback.list`. It never rejects: an error of its own (a refusal, or the
 * call failing) stays in the section, and the issue's page is shown whatever became of it.
 */
export async function issueFeedbackSection(context: RouteContext, factoryId: string, issueId: string): Promise<Html> {
  try {
    const reply = await context.ask({ operation: 'feedback.list', factoryId, issueId, limit: ISSUE_FEEDBACK_SHOWN });
    return reply.ok ? feedbackSection(factoryId, reply.body.feedback) : feedbackSection(factoryId, undefined, text(reply.body.error));
  } catch (error) {
    return feedbackSection(factoryId, undefined, error instanceof Error ? error.message : 'the call failed');
  }
}

/**
 * An issue's user feedback (docs/feedback.md), newest first: what people wrote
 * about it, who (their name as they gave it, their contact when their email is
 * one) and from which page. Strangers' text: every part goes through the
 * page's escaping, never as markup. No email is shown: the contact link is.
 */
export function feedbackSection(factoryId: string, feedback: readonly FeedbackView[] | undefined, error?: string): Html {
  const heading = html`<h3 id="issue-feedback-title">What people said</h3>`;
  if (error !== undefined)
    return html`<section aria-labelledby="issue-feedback-title">${heading}<p class="muted">Feedback could not be read: ${error}</p></section>`;
  if (!feedback || feedback.length === 0)
    return html`<section aria-labelledby="issue-feedback-title">${heading}<p class="empty">No user feedback on this issue.</p></section>`;
  return html`<section aria-labelledby="issue-feedback-title">${heading}<div class="table-wrap"><table class="list" id="issue-feedback"><thead><tr><th scope="col">Received</th><th scope="col">Message</th><th scope="col">From</th><th scope="col">Page</th></tr></thead>
<tbody>${feedback.map(
    (one) => html`<tr><td>${time(one.receivedAt)}</td><td><pre class="text">${text(one.message)}</pre></td>
<td>${one.contactId ? appLink(['f', factoryId, 'contacts', one.contactId], text(one.reporter?.name) || one.contactId) : text(one.reporter?.name)}</td>
<td>${summary(one.url, 60)}</td></tr>`,
  )}</tbody></table></div></section>`;
}
