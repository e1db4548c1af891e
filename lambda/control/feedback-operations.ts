import * as z from 'zod/mini';
import type { FeedbackReader, FeedbackView } from '../ingest/feedback/stored-feedback';
import { cursor, factoryId, issueId, limit } from './fields';
import { ControlError, operation, withCursor } from './operation';
import type { ControlDependencies } from './ports';

/** Feedback per page of `reports feedback`, and on an issue's page. */
export const FEEDBACK_DEFAULT = 50;
export const FEEDBACK_MAX = 200;

function feedbackOf(deps: ControlDependencies): FeedbackReader {
  if (!deps.feedback) throw new ControlError(500, 'user feedback is not wired to this control room (no reports table)');
  return deps.feedback;
}

/**
 * User feedback (docs/feedback.md): a factory's newest first, cursor paged, or one issue's newest (its own and
 * those whose event, stored after them, is the issue's). Audit fields: counts only, never a message or an email.
 */
export const FEEDBACK_OPERATIONS = {
  'feedback.list': operation({
    request: z.strictObject({ factoryId, issueId: z.optional(issueId), limit: limit(FEEDBACK_MAX), cursor }),
    defaults: (request) => ({ ...request, limit: request.limit ?? FEEDBACK_DEFAULT }),
    run: async (request, { deps, now }) => {
      const reader = feedbackOf(deps);
      const nowMs = now.getTime();
      if (request.issueId !== undefined) {
        if (request.cursor !== undefined) throw new ControlError(400, "an issue's feedback is its newest, one page: send no cursor with issueId");
        const feedback = await reader.ofIssue(request.factoryId, request.issueId, { limit: request.limit, nowMs });
        return { body: { feedback }, audit: { count: feedback.length } };
      }
      const page = await reader.list(request.factoryId, { limit: request.limit, nowMs, ...(request.cursor === undefined ? {} : { cursor: request.cursor }) });
      return { body: { feedback: page.items, ...withCursor(page.next) }, audit: { count: page.items.length, more: page.next !== undefined } };
    },
  }),
};

/** What `feedback.list` answers: the feedback newest first, and for a factory's list the next page's cursor. */
export interface FeedbackListAnswer {
  feedback: FeedbackView[];
  cursor?: string;
}
