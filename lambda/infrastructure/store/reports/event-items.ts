import type { StoredEvent } from '../../../ingest/issues/stored-event';
import { eventKey, EXPIRES_AT, PERSON_ATTRIBUTE, REPORT_BOOKKEEPING, REPORTS_BY_PERSON } from '../schema';
import { compactDetail, decodeDetail, encodeDetail, expandedDetail } from './event-detail';

/**
 * How an event sits in the reports table (docs/capacity.md#the-event-item): one item per factory and eventId (the
 * dedupe key), in no index but byPerson. Outside its detail it keeps only what DynamoDB or an erasure reads: its key,
 * `expiresAt` (the time to live), and for an event naming a reporter's email the reporter and its person key (the
 * byPerson index's; an erasure removes both: docs/privacy.md). Everything else, its issue included (never
 * `issueId` at the top, which would put every event into the byIssue index: docs/capacity.md), is its detail
 * (but the receive time of an event with a person key, which is the byPerson index's sort key):
 * one compressed attribute, its stack kept once (./event-detail.ts). A typical 5-frame error is one write unit.
 *
 * Items written before, with every field an attribute of its own (the issue under `issue`, or under `issueId`
 * with `feed` for the earliest ones, which sit in the indexes), are read alike.
 */
export const EVENT_DETAIL_ATTRIBUTE = 'd';
/** The earlier layout's attribute for an event's issue. */
const EARLIER_ISSUE_ATTRIBUTE = 'issue';

export function eventItemOf(event: StoredEvent & { [PERSON_ATTRIBUTE]?: string }): Record<string, unknown> {
  const { factoryId: _factoryId, eventId: _eventId, expiresAt, reporter, [PERSON_ATTRIBUTE]: person, ...rest } = event;
  // With a person key, its receive time is the byPerson index's sort key: an attribute of its own, or no index entry.
  const { [REPORTS_BY_PERSON.sortKey]: receivedAt, ...detail } = rest;
  return {
    pk: eventKey(event.factoryId, event.eventId),
    [EXPIRES_AT]: expiresAt,
    [EVENT_DETAIL_ATTRIBUTE]: encodeDetail(compactDetail(person === undefined ? rest : detail)),
    ...(reporter === undefined ? {} : { reporter }),
    ...(person === undefined ? {} : { [PERSON_ATTRIBUTE]: person, [REPORTS_BY_PERSON.sortKey]: receivedAt }),
  };
}

/** The factory and eventId an event item's key names (`event#<factory>#<eventId>`: an eventId holds no `#`). */
function idsOf(pk: string): { factoryId: string; eventId: string } {
  const last = pk.lastIndexOf('#');
  return { factoryId: pk.slice(pk.indexOf('#') + 1, last), eventId: pk.slice(last + 1) };
}

/** An event item as stored, of either layout: the event, its issue under `issueId` (its person key, if any, beside it). */
export function storedEventOf(item: Record<string, unknown>): StoredEvent {
  const { pk, [EVENT_DETAIL_ATTRIBUTE]: detail, ...outside } = item;
  if (detail !== undefined) {
    if (!(detail instanceof Uint8Array) && typeof detail !== 'string') throw new Error(`${String(pk)}: its detail is neither bytes nor base64`);
    return { ...idsOf(String(pk)), ...expandedDetail(decodeDetail(detail)), ...outside } as unknown as StoredEvent;
  }
  const { [EARLIER_ISSUE_ATTRIBUTE]: issue, feed: _feed, ...rest } = outside;
  const event: Record<string, unknown> = { ...rest };
  if (typeof issue === 'string') event.issueId = issue;
  return event as unknown as StoredEvent;
}

/** An event item as the control room reads it: the event without the store's bookkeeping. */
export function eventViewOf(item: Record<string, unknown>): Record<string, unknown> {
  const view: Record<string, unknown> = { ...storedEventOf(item) };
  for (const name of REPORT_BOOKKEEPING) delete view[name];
  return view;
}
