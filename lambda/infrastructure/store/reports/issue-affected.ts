import type { IssueAffected } from '../../../ingest/issues/affected';
import type { Expression } from '../expression';

type Item = Record<string, unknown>;

/**
 * How an issue item keeps who it affects (docs/report-issues.md#who-is-affected): three counts the tally adds to in
 * the count's own write (`ADD`, exactly once by the write's marks), and an erasure takes down by one. The people
 * and companies themselves are items of their own (affected-items.ts).
 */
export const AFFECTED_CONTACTS = 'affectedContacts';
export const AFFECTED_NOT_IN_CRM = 'affectedNotInCrm';
export const AFFECTED_COMPANIES = 'affectedCompanies';
export const AFFECTED_ATTRIBUTES = [AFFECTED_CONTACTS, AFFECTED_NOT_IN_CRM, AFFECTED_COMPANIES];

const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0);

/** An item's counts; undefined when it counted nobody. */
export function affectedOfItem(item: Item): IssueAffected | undefined {
  const affected = { contacts: count(item[AFFECTED_CONTACTS]), notInCrm: count(item[AFFECTED_NOT_IN_CRM]), companies: count(item[AFFECTED_COMPANIES]) };
  return affected.contacts + affected.notInCrm + affected.companies === 0 ? undefined : affected;
}

/** The attributes of a new item counting these. */
export function newItemAffected(added: IssueAffected): Item {
  const item: Item = {};
  if (added.contacts > 0) item[AFFECTED_CONTACTS] = added.contacts;
  if (added.notInCrm > 0) item[AFFECTED_NOT_IN_CRM] = added.notInCrm;
  if (added.companies > 0) item[AFFECTED_COMPANIES] = added.companies;
  return item;
}

/** What a batch adds to (or an erasure takes from) who the issue affects: the counts, with ADD. */
export function writeAffected(update: Expression, added: IssueAffected): void {
  if (added.contacts !== 0) update.add(AFFECTED_CONTACTS, added.contacts);
  if (added.notInCrm !== 0) update.add(AFFECTED_NOT_IN_CRM, added.notInCrm);
  if (added.companies !== 0) update.add(AFFECTED_COMPANIES, added.companies);
}
