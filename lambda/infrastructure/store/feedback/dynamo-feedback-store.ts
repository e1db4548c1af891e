import { GetCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { StoredFeedback } from '../../../ingest/feedback/stored-feedback';
import type { FeedbackOutcome, FeedbackStore } from '../../../ingest/ports';
import type { PersonKeys } from '../../../kernel/person-key';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression } from '../expression';
import { storedEventOf } from '../reports/event-items';
import { withPersonKeys } from '../reports/person-attribute';
import {
  eventKey,
  feedbackFeed,
  feedbackKey,
  feedbackLinkKey,
  feedbackShardOf,
  issueFeedbackFeed,
  pendingFeedbackFeed,
  REPORTS_KEY,
  type TableNames,
} from '../schema';
import { FEEDBACK_ITEM_TYPE, LINKED_ISSUE_ATTRIBUTE } from './feedback-items';

/**
 * User feedback in the reports table (docs/feedback.md#how-it-is-stored): per
 * feedback, at most one GetItem (its associated event, for the issue) and two
 * writes: its link (into the issue's partition, or the pending one) and the
 * feedback item itself, a conditional PutItem on its id (the dedupe). The link
 * goes first, so a feedback stored is always findable from its issue; a link
 * whose feedback write failed points at nothing until the SDK sends it again.
 */
export class DynamoFeedbackStore implements FeedbackStore {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tables: Pick<TableNames, 'reports'>,
    private readonly persons?: PersonKeys,
  ) {}

  async putFeedback(feedback: readonly StoredFeedback[]): Promise<FeedbackOutcome[]> {
    const keyed = await withPersonKeys(feedback, this.persons);
    return Promise.all(keyed.map((one) => this.putOne(one)));
  }

  /** The issue of a stored event of the factory; none when it is not stored (yet) or opened no issue (filtered). */
  private async issueOfEvent(factoryId: string, eventId: string): Promise<string | 'pending' | undefined> {
    const found = await storageCall('GetItem (feedback: its event)', () =>
      this.doc.send(
        new GetCommand({ TableName: this.tables.reports, Key: { [REPORTS_KEY.partitionKey]: eventKey(factoryId, eventId) }, ConsistentRead: true }),
      ),
    );
    if (!found.Item) return 'pending';
    return storedEventOf(found.Item).issueId;
  }

  private async putOne(feedback: StoredFeedback): Promise<FeedbackOutcome> {
    const { factoryId, feedbackId } = feedback;
    const issue = feedback.associatedEventId === undefined ? undefined : await this.issueOfEvent(factoryId, feedback.associatedEventId);
    if (issue !== undefined) await this.putLink(feedback, issue);
    const item: Record<string, unknown> = {
      ...feedback,
      [REPORTS_KEY.partitionKey]: feedbackKey(factoryId, feedbackId),
      feed: feedbackFeed(factoryId, feedbackShardOf(feedbackId)),
      type: FEEDBACK_ITEM_TYPE,
      ...(issue !== undefined && issue !== 'pending' ? { [LINKED_ISSUE_ATTRIBUTE]: issue } : {}),
    };
    const condition = new Expression();
    condition.when(condition.notExists(REPORTS_KEY.partitionKey));
    try {
      await storageCall('PutItem (feedback)', () =>
        this.doc.send(
          new PutCommand({ TableName: this.tables.reports, Item: item, ...condition.forCondition(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' }),
        ),
      );
      return 'stored';
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
      // Our own earlier attempt, its answer lost, is stored; anything else with this id was sent before.
      return itemOfFailure<{ writeToken?: string }>(error)?.writeToken === feedback.writeToken ? 'stored' : 'duplicate';
    }
  }

  /** The feedback's link: a pending one is replaced once the event is found, an issue's never (the first word stands). */
  private async putLink(feedback: StoredFeedback, issue: string | 'pending'): Promise<void> {
    const { factoryId, feedbackId } = feedback;
    const pending = pendingFeedbackFeed(factoryId);
    const condition = new Expression();
    condition.when(condition.or(condition.notExists(REPORTS_KEY.partitionKey), condition.is('feed', '=', pending)));
    try {
      await storageCall('PutItem (feedback link)', () =>
        this.doc.send(
          new PutCommand({
            TableName: this.tables.reports,
            Item: {
              [REPORTS_KEY.partitionKey]: feedbackLinkKey(factoryId, feedbackId),
              feed: issue === 'pending' ? pending : issueFeedbackFeed(factoryId, issue),
              type: 'feedback-link',
              factoryId,
              feedbackId,
              // Its feedback's receive time and expiry: the link lists and expires with it.
              receivedAt: feedback.receivedAt,
              expiresAt: feedback.expiresAt,
              ...(feedback.associatedEventId === undefined ? {} : { associatedEventId: feedback.associatedEventId }),
            },
            ...condition.forCondition(),
          }),
        ),
      );
    } catch (error) {
      if (!isConditionalCheckFailed(error)) throw error;
    }
  }
}
