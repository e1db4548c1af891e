import { storeSentryFeedback } from '../../../../lambda/ingest/api/receive-feedback';
import type { StoredFeedback } from '../../../../lambda/ingest/feedback/stored-feedback';
import type { FeedbackOutcome, FeedbackStore } from '../../../../lambda/ingest/ports';
import type { RequestReceipt } from '../../../../lambda/ingest/receive-events';
import { emptySessionReport } from '../../../../lambda/ingest/sessions/session-reports';
import type { SentFeedback, SentryRequest } from '../../../../lambda/ingest/sentry/sentry-request';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';

/** A Sentry request's feedback once its events are stored (api/receive-feedback.ts), against a store that records what it is given. */
class RecordingStore implements FeedbackStore {
  readonly given: StoredFeedback[] = [];
  constructor(private readonly answer: FeedbackOutcome = 'stored') {}
  async putFeedback(feedback: readonly StoredFeedback[]): Promise<FeedbackOutcome[]> {
    this.given.push(...feedback);
    return feedback.map(() => this.answer);
  }
}

const RECEIPT: RequestReceipt = {
  factoryId: 'fac_f',
  keyId: 'key_0000000000000001',
  origin: 'https://app.example',
  receivedAt: '2026-12-06T10:00:00.000Z',
  expiresAt: 1_800_000_000,
  requestToken: 'token',
};
const ID = '0123456789abcdef0123456789abcdef';
const request = (feedback: SentFeedback[], header: Record<string, unknown> = {}): SentryRequest => ({
  header,
  events: [],
  sessions: emptySessionReport(),
  feedback,
  dropped: {},
});

test('valid feedback is stored with its receipt and a write token per item; the log line has counts only', async () => {
  const store = new RecordingStore();
  const state = newRequestState({});
  const sent: SentFeedback[] = [
    { source: 'feedback', raw: { contexts: { feedback: { message: 'hi', contact_email: 'ada@example.com' } } } },
    { source: 'user_report', raw: { event_id: ID, comments: 'there', email: 'bob@example.com' } },
  ];
  await storeSentryFeedback(store, request(sent.slice(0, 1), { event_id: ID }), RECEIPT, state);
  await storeSentryFeedback(store, request(sent.slice(1)), RECEIPT, state);
  expect(store.given.map(({ factoryId, source, message, writeToken, receivedAt }) => ({ factoryId, source, message, writeToken, receivedAt }))).toEqual([
    { factoryId: 'fac_f', source: 'feedback', message: 'hi', writeToken: 'token#feedback0', receivedAt: RECEIPT.receivedAt },
    { factoryId: 'fac_f', source: 'user_report', message: 'there', writeToken: 'token#feedback0', receivedAt: RECEIPT.receivedAt },
  ]);
  expect(state.logFields).toEqual({ feedback: 1 });
  expect(JSON.stringify(state)).not.toContain('@example.com');
});

test('feedback that cannot be read is dropped and counted per item type; duplicates are noted', async () => {
  const store = new RecordingStore('duplicate');
  const state = newRequestState({});
  await storeSentryFeedback(
    store,
    request([
      { source: 'feedback', raw: { event_id: ID, contexts: { feedback: {} } } },
      { source: 'user_report', raw: { comments: 'no id' } },
      { source: 'user_report', raw: { event_id: ID, comments: 'again' } },
    ]),
    RECEIPT,
    state,
  );
  expect(store.given).toHaveLength(1);
  expect(state.logFields).toEqual({ feedback: 0, feedbackDuplicates: 1 });
  expect(state.counts).toEqual({ SentryItemsDropped_feedback: 1, SentryItemsDropped_user_report: 1 });
});

test('without a feedback store (the in-memory ingest), feedback is dropped and counted, as before feedback was kept', async () => {
  const state = newRequestState({});
  await storeSentryFeedback(undefined, request([{ source: 'user_report', raw: { event_id: ID, comments: 'x' } }]), RECEIPT, state);
  expect(state.counts).toEqual({ SentryItemsDropped_user_report: 1 });
});
