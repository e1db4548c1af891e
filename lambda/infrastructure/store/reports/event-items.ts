import type { StoredEvent } from '../../../ingest/issues/stored-event';
import { eventKey, REPORT_BOOKKEEPING } from '../schema';

/**
 * How an event sits in the reports table: one item per factory and eventId
 * (the dedupe key), and in NO index. Its issue is kept under `issue`, not
 * `issueId`, which would put every event into the byIssue index (a write per
 * event on one index partition per issue: docs/capacity.md). Reading an
 * issue's or a factory's events newest first goes through the feed pages
 * the tally writes (feed-pages.ts). Items written before that change carry
 * `issueId` and `feed` and sit in the indexes: both are read alike.
 */
export const EVENT_ISSUE_ATTRIBUTE = 'issue';

export function eventItemOf(event: StoredEvent): Record<string, unknown> {
  const { issueId, ...rest } = event;
  return { pk: eventKey(event.factoryId, event.eventId), ...rest, ...(issueId === undefined ? {} : { [EVENT_ISSUE_ATTRIBUTE]: issueId }) };
}

/** An event item as stored: the event, its issue under `issueId` again (items of either layout). */
export function storedEventOf(item: Record<string, unknown>): StoredEvent {
  const { [EVENT_ISSUE_ATTRIBUTE]: issue, ...rest } = item;
  const event = { ...rest } as Record<string, unknown>;
  if (typeof issue === 'string') event.issueId = issue;
  delete event.pk;
  delete event.feed;
  return event as unknown as StoredEvent;
}

/** An event item as the control room reads it: the event without the store's bookkeeping. */
export function eventViewOf(item: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = { ...storedEventOf(item) };
  for (const name of REPORT_BOOKKEEPING) delete view[name];
  return view;
}
