import { contactIdFromDigest, contactIdInput } from '../../kernel/contact-id-digest';
import { normalizeEmail } from '../../kernel/email';
import { sha256Hex } from '../../kernel/hash';
import type { StoredEvent } from './stored-event';

/**
 * Who an issue affects (docs/report-issues.md#who-is-affected): the people behind its events, by the contact id their
 * email derives (the CRM's own id, `ct_` + sha256 of the factory and the email: no lookup), the companies those
 * people belong to in the CRM, and how many of each. The tally counts them as it counts events
 * (lambda/ingest/tally/count-people.ts): each (issue, person) pair is an item of its own, opened by one event; that
 * event, and only it, adds the person (and, when the person is the first of their company, the company) to the
 * issue's counts, exactly once by the issue's marks. Pure: no store, no AWS.
 *
 * Only ids and counts leave the CRM's side: an answer or an alert names people by contact id and companies by
 * company id, never by an email.
 */

/** The contact id of the person an event names: its reporter's email, normalized as the contacts API does; none for an anonymous visitor. */
export function contactOfEvent(event: Pick<StoredEvent, 'factoryId' | 'reporter'>): string | undefined {
  const email = event.reporter?.email;
  if (typeof email !== 'string') return undefined;
  const checked = normalizeEmail(email);
  return checked.ok ? contactIdFromDigest(sha256Hex(contactIdInput(event.factoryId, checked.email))) : undefined;
}

/** What the CRM said of a person when they were first counted into an issue: a contact or not (yet), and their company. */
export interface CrmLink {
  inCrm: boolean;
  companyId?: string;
}

/**
 * How one event counts into its issue's people, as the tally learned it from the (issue, person) pair: the person,
 * what the CRM said of them, and whether this event is the one that opened the pair (`opens`: it adds the person to
 * the issue's counts) and, with it, the (issue, company) pair (`opensCompany`).
 */
export interface EventPerson extends CrmLink {
  contactId: string;
  opens?: boolean;
  opensCompany?: boolean;
}

/** The distinct counts an issue keeps: people who were contacts when first counted, people who were not (yet), and companies. */
export interface IssueAffected {
  contacts: number;
  notInCrm: number;
  companies: number;
}

export const noneAffected = (): IssueAffected => ({ contacts: 0, notInCrm: 0, companies: 0 });

/** What some events add to an issue's counts: the people and companies they opened. */
export function affectedOf(people: readonly (EventPerson | undefined)[]): IssueAffected {
  const added = noneAffected();
  for (const person of people) {
    if (!person?.opens) continue;
    if (person.inCrm) added.contacts += 1;
    else added.notInCrm += 1;
    if (person.opensCompany) added.companies += 1;
  }
  return added;
}

/** An issue's counts after some more (or fewer: an erasure adds -1). */
export function addAffected(existing: IssueAffected | undefined, added: IssueAffected): IssueAffected {
  const base = existing ?? noneAffected();
  return {
    contacts: Math.max(0, base.contacts + added.contacts),
    notInCrm: Math.max(0, base.notInCrm + added.notInCrm),
    companies: Math.max(0, base.companies + added.companies),
  };
}

/** Whether some events count anyone new: an issue's write carries its affected part only then. */
export const affectsCounts = (added: IssueAffected): boolean => added.contacts !== 0 || added.notInCrm !== 0 || added.companies !== 0;

/** One person as an issue's page lists them: their events in it, when first and last, and what the CRM said of them. */
export interface AffectedPerson extends CrmLink {
  contactId: string;
  events: number;
  firstSeen: string;
  lastSeen: string;
}

/** One company as an issue's page lists it: its people counted in the issue, their events, when last seen. */
export interface AffectedCompany {
  companyId: string;
  people: number;
  events: number;
  lastSeen: string;
}

/** Greater first; a tie goes to the next comparison. */
const greaterFirst = (a: string | number, b: string | number): number => (a < b ? 1 : a > b ? -1 : 0);

/** Companies biggest first (most people, then most events), then by id. */
export const companiesBiggestFirst = (a: AffectedCompany, b: AffectedCompany): number =>
  greaterFirst(a.people, b.people) || greaterFirst(a.events, b.events) || -greaterFirst(a.companyId, b.companyId);

/** People with the most events first, then the most recently seen, then by id. */
export const peopleBusiestFirst = (a: AffectedPerson, b: AffectedPerson): number =>
  greaterFirst(a.events, b.events) || greaterFirst(a.lastSeen, b.lastSeen) || -greaterFirst(a.contactId, b.contactId);

/** The companies of an issue's people, summed from them, biggest first. */
export function companiesOfPeople(people: readonly AffectedPerson[]): AffectedCompany[] {
  const byCompany = new Map<string, AffectedCompany>();
  for (const person of people) {
    if (person.companyId === undefined) continue;
    const company = byCompany.get(person.companyId) ?? { companyId: person.companyId, people: 0, events: 0, lastSeen: person.lastSeen };
    company.people += 1;
    company.events += person.events;
    if (person.lastSeen > company.lastSeen) company.lastSeen = person.lastSeen;
    byCompany.set(person.companyId, company);
  }
  return [...byCompany.values()].sort(companiesBiggestFirst);
}

/** A list read whole up to a bound: what was read, and whether that was all of it. */
export interface Bounded<T> {
  items: T[];
  complete: boolean;
}

/**
 * The lists of who an issue affects, and the other way round (DynamoDB: lambda/infrastructure/store/reports/affected-items.ts;
 * in memory: lambda/infrastructure/memory/memory-report-store.ts). Each list is read whole up to `limit` entries;
 * entries past their life are left out.
 */
export interface AffectedReader {
  /** The people counted into an issue, busiest first. */
  peopleOf(factoryId: string, issueId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson>>;
  /** The issues a contact (ct_…) was counted in, with their share of each. */
  issuesOfContact(factoryId: string, contactId: string, limit: number, nowMs: number): Promise<Bounded<AffectedPerson & { issueId: string }>>;
  /** The issues a company's (co_…) people were counted in. */
  issuesOfCompany(factoryId: string, companyId: string, limit: number, nowMs: number): Promise<Bounded<string>>;
}

/** An erasure's part here (docs/privacy.md): the person's pairs deleted, the counts they were in taken down by one. Answers the issues they were in. */
export interface AffectedEraser {
  forgetPerson(factoryId: string, contactId: string, nowMs: number): Promise<string[]>;
}
