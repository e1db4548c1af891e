import type { IssueListAnswer } from '../../../../lambda/control/issue-operations';
import { REPORT_ID_PATTERN } from '../../../../lambda/ingest/issues/stored-event';
import { appLink, text } from '../display';
import { html } from '../html';

/** Events the tally could not count (docs/report-issues.md#events-set-aside): how many, why, and the latest one's id. */
export function setAsideNote(factoryId: string, setAside: IssueListAnswer['setAside'] | undefined) {
  const counts = Object.entries(setAside?.counts ?? {}).filter(([, count]) => typeof count === 'number' && count > 0);
  if (counts.length === 0) return '';
  const total = counts.reduce((sum, [, count]) => sum + (count as number), 0);
  const last = setAside?.last;
  return html`<p class="set-aside" id="set-aside">${text(total)} stored event${total > 1 ? 's' : ''} could not be counted and ${total > 1 ? 'were' : 'was'} set aside: ${counts.map(([reason, count]) => `${reason} ${count}`).join(', ')}.${last ? html` The latest: event ${REPORT_ID_PATTERN.test(last.eventId) ? appLink(['f', factoryId, 'reports', 'events', last.eventId], last.eventId) : html`<code>${text(last.eventId)}</code>`} (${text(last.reason)}${last.detail ? html`: ${text(last.detail)}` : ''}).` : ''}</p>`;
}
