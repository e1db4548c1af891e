import { randomUUID } from 'node:crypto';
import type { AttributeValue, CancellationReason } from '@aws-sdk/client-dynamodb';
import { TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { StorageUnavailableError } from '../domain/errors';
import type { CallLog } from '../domain/ports';
import { epochSeconds, filteredDelta, issueDeltas, type EventToStore, type FilteredDelta, type IssueDelta } from '../ingest/issues';
import { MAX_EVENTS_PER_REQUEST } from '../ingest/limits';
import { Expression } from './expression';
import { storageCall } from './errors';
import { FILTERED_ATTRIBUTE, filteredKey, issueFeedOf, issueKey } from './issue-items';
import { eventKey, feedOf } from './schema';

/**
 * The events of one ingest request and what they add to their issues, in
 * ONE TransactWriteItems (docs/report-issues.md, "Exact counts"):
 *   - each event: a Put with attribute_not_exists(pk) (the eventId dedupe);
 *   - each issue the request touches: one Update (ADD count :n, SET last seen,
 *     if_not_exists for what was first seen), whatever the number of its events;
 *   - the factory's filtered counts, when some events were filtered.
 * All or nothing: a count grows exactly when its events are stored, so no
 * retry or race counts an eventId twice. A cancelled transaction says per
 * item why (CancellationReasons, with the item as stored): events already
 * there are dropped (duplicates, or our own earlier attempt that landed),
 * an issue found resolved or expired gets the write for that state, and
 * the rest is sent again. With no race that is one round, two when the
 * request holds duplicates or reopens a resolved issue.
 */

type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** What the last cancellation said an issue is; the write is chosen by it. */
type IssueState = 'live' | 'resolved' | 'expired';

/** Rounds at most: every refused round drops an event or learns an issue's state; the rest are conflicts. */
const MAX_ROUNDS = MAX_EVENTS_PER_REQUEST * 2 + 10;
const MAX_CONFLICT_RETRIES = 8;
/** Reasons that are about other writers or load, not about our items: worth the same transaction again, later. */
const RETRYABLE_REASONS = new Set(['TransactionConflict', 'ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded']);

function eventPut(tableName: string, { event }: EventToStore): TransactItem {
  return {
    Put: {
      TableName: tableName,
      Item: { pk: eventKey(event.factoryId, event.eventId), feed: feedOf(event.factoryId, 'events'), ...event },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** What every write of an issue sets, whatever its state: the last event, last seen (the index's sort key) and the expiry. */
function counted(update: Expression, delta: IssueDelta): Expression {
  update.set('lastSeen', delta.seenAt).set('receivedAt', delta.seenAt).set('lastEventId', delta.lastEventId).set('expiresAt', delta.expiresAt);
  update.setOnce('factoryId', delta.factoryId).setOnce('fingerprint', delta.fingerprint).setOnce('title', delta.title).setOnce('firstSeen', delta.seenAt);
  if (delta.firstRelease !== undefined) update.setOnce('firstRelease', delta.firstRelease);
  if (delta.lastRelease !== undefined) update.set('lastRelease', delta.lastRelease);
  return update.add('count', delta.count);
}

/**
 * The write of one issue for the state the last cancellation showed (live
 * when nothing was seen yet). Each write's condition holds only in its
 * state, so a state that changed in between refuses it and says the new one:
 *   live      new, open or ignored: counted, status and feed kept (open for a new one);
 *   resolved  counted, and open again with the regression recorded, in the same write;
 *   expired   past its expiry but not yet removed by TTL: replaced by a new open issue.
 */
function issueWrite(tableName: string, delta: IssueDelta, state: IssueState): TransactItem {
  const key = { pk: issueKey(delta.factoryId, delta.issueId) };
  const openFeed = issueFeedOf(delta.factoryId, 'open');
  const nowSeconds = epochSeconds(delta.seenAt);
  if (state === 'expired') {
    const { issueId: _issueId, count, seenAt, factoryId, fingerprint, title, firstRelease, lastRelease, lastEventId, expiresAt } = delta;
    const gone = new Expression();
    gone.when(gone.is('expiresAt', '<=', nowSeconds));
    return {
      Put: {
        TableName: tableName,
        Item: { ...key, feed: openFeed, receivedAt: seenAt, factoryId, fingerprint, title, count, firstSeen: seenAt, lastSeen: seenAt, firstRelease, lastRelease, lastEventId, status: 'open', expiresAt },
        ...gone.forCondition(),
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    };
  }
  const update = counted(new Expression(), delta);
  const live = update.is('expiresAt', '>', nowSeconds);
  if (state === 'resolved') {
    update.set('status', 'open').set('feed', openFeed).set('regressedAt', delta.seenAt).add('regressions', 1);
    update.when(update.is('status', '=', 'resolved'), live);
  } else {
    update.setOnce('status', 'open').setOnce('feed', openFeed);
    // AND binds tighter than OR: new, or neither resolved nor expired.
    update.when(update.or(update.notExists('pk'), `${update.is('status', '<>', 'resolved')} AND ${live}` as typeof live));
  }
  return { Update: { TableName: tableName, Key: key, ...update.forUpdate(), ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } };
}

function filteredUpdate(tableName: string, delta: FilteredDelta): TransactItem {
  const update = new Expression().set('factoryId', delta.factoryId).set('lastSeen', delta.seenAt).set('expiresAt', delta.expiresAt);
  for (const [reason, count] of Object.entries(delta.counts) as [keyof typeof FILTERED_ATTRIBUTE, number][]) update.add(FILTERED_ATTRIBUTE[reason], count);
  return { Update: { TableName: tableName, Key: { pk: filteredKey(delta.factoryId) }, ...update.forUpdate() } };
}

const itemOf = (reason: CancellationReason | undefined): Record<string, unknown> | undefined =>
  reason?.Item ? unmarshall(reason.Item as Record<string, AttributeValue>) : undefined;

/** The state an issue item returned with a refused condition is in. */
function stateOf(item: Record<string, unknown> | undefined, nowSeconds: number): IssueState {
  if (!item) return 'live';
  if (typeof item.expiresAt === 'number' && item.expiresAt <= nowSeconds) return 'expired';
  return item.status === 'resolved' ? 'resolved' : 'live';
}

function cancellationReasons(error: unknown): CancellationReason[] | undefined {
  if (!(error instanceof Error) || error.name !== 'TransactionCanceledException') return undefined;
  return (error as Error & { CancellationReasons?: CancellationReason[] }).CancellationReasons;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function writeEventsAndIssues(
  doc: DynamoDBDocumentClient,
  tableName: string,
  events: readonly EventToStore[],
  log?: CallLog,
): Promise<('stored' | 'duplicate')[]> {
  const outcomes: ('stored' | 'duplicate')[] = events.map(() => 'duplicate');
  // A transaction may not name one item twice: the second event of a request with an eventId is its duplicate.
  const firsts = new Set<string>();
  let pending = events.flatMap((item, index) => (firsts.has(item.event.eventId) ? [] : (firsts.add(item.event.eventId), [index])));
  const states = new Map<string, IssueState>();
  let conflicts = 0;
  for (let round = 1; pending.length > 0; round += 1) {
    const batch = pending.map((index) => events[index] as EventToStore);
    const deltas = issueDeltas(batch);
    const filtered = filteredDelta(batch);
    const items = [
      ...batch.map((item) => eventPut(tableName, item)),
      ...deltas.map((delta) => issueWrite(tableName, delta, states.get(delta.issueId) ?? 'live')),
      ...(filtered ? [filteredUpdate(tableName, filtered)] : []),
    ];
    try {
      // The token makes the SDK's own retry of a transaction that landed (its answer lost) a no-op.
      await storageCall('TransactWriteItems (events and issues)', () => doc.send(new TransactWriteCommand({ TransactItems: items, ClientRequestToken: randomUUID() })), log);
      for (const index of pending) outcomes[index] = 'stored';
      return outcomes;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (!reasons) throw error;
      let learned = false;
      pending = pending.filter((index, position) => {
        const reason = reasons[position];
        if (reason?.Code !== 'ConditionalCheckFailed') return true;
        // Stored already: by another request (a duplicate), or by our own attempt whose answer was lost (stored, counted then).
        outcomes[index] = itemOf(reason)?.writeToken === events[index]?.event.writeToken ? 'stored' : 'duplicate';
        learned = true;
        return false;
      });
      deltas.forEach((delta, position) => {
        const reason = reasons[batch.length + position];
        if (reason?.Code !== 'ConditionalCheckFailed') return;
        states.set(delta.issueId, stateOf(itemOf(reason), epochSeconds(delta.seenAt)));
        learned = true;
      });
      const retryable = reasons.some((reason) => RETRYABLE_REASONS.has(reason.Code ?? ''));
      if (!learned && !retryable) throw error;
      if (!learned) {
        conflicts += 1;
        if (conflicts > MAX_CONFLICT_RETRIES) throw new StorageUnavailableError('TransactWriteItems (events and issues)', error);
        // Other requests are writing the same issue: wait a jittered, growing while.
        await pause(Math.random() * Math.min(500, 10 * 2 ** conflicts));
      }
      if (round >= MAX_ROUNDS) throw new StorageUnavailableError('TransactWriteItems (events and issues)', error);
    }
  }
  return outcomes;
}
