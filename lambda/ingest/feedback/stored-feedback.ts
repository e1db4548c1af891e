import type { ReceiptFields } from '../issues/stored-event';
import type { ScrubCounts } from '../scrub/rule';

/**
 * User feedback as Sentry's SDKs send it (docs/feedback.md): a `feedback` item
 * (an event of type `feedback`, what @sentry/browser's captureFeedback and its
 * widget send, its words under contexts.feedback) or a legacy `user_report`
 * item (`event_id`, `email`, `name`, `comments`), read into one shape by
 * ../sentry/sentry-feedback.ts; stored by a FeedbackStore (../ports.ts).
 */
export type FeedbackSource = 'feedback' | 'user_report';

/** Characters kept of each field (longer text is clipped, never refused): a message of 4,096 is Sentry's widget's own cap. */
export const FEEDBACK_TEXT = { message: 4096, name: 200, url: 2048 } as const;

/** Feedback as read from the SDK, before the server adds its receipt. */
export interface FeedbackInput {
  /** The feedback's own id (a UUID): the feedback event's `event_id`, or a user report's event's. */
  feedbackId: string;
  source: FeedbackSource;
  message: string;
  /** The event the person was looking at when they wrote it: its issue is the feedback's issue. */
  associatedEventId?: string;
  url?: string;
  /** Who wrote it, as they said: the email (stored form) is how it reaches their contact and their person key. */
  reporter?: { email?: string; name?: string };
  /** What the scrubber replaced, per rule; absent when nothing. */
  scrubbed?: ScrubCounts;
}

/** Feedback as stored: what was sent and what the server records (its receipt). */
export interface StoredFeedback extends ReceiptFields, FeedbackInput {}

/** Feedback as its readers list it: as stored without the store's bookkeeping, its issue and contact as found when read. */
export interface FeedbackView extends Record<string, unknown> {
  feedbackId: string;
  receivedAt: string;
  message: string;
  source: FeedbackSource;
  associatedEventId?: string;
  /** The issue of its associated event, when that event is stored. */
  issueId?: string;
  /** The contact whose email it names, when that contact exists. */
  contactId?: string;
  reporter?: { email?: string; name?: string };
}

/** A page of feedback, newest first, and where the next one starts. */
export interface FeedbackPage {
  items: FeedbackView[];
  next?: string;
}

/** Reading feedback (docs/feedback.md#reading-it): a factory's newest first, page by page, and an issue's newest. */
export interface FeedbackReader {
  list(factoryId: string, options: { limit: number; cursor?: string; nowMs?: number }): Promise<FeedbackPage>;
  ofIssue(factoryId: string, issueId: string, options: { limit: number; nowMs?: number }): Promise<FeedbackView[]>;
}
