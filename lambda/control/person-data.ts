import { contactId as contactIdOf } from '../contacts/domain/contact-id';
import type { StoredEmail } from '../kernel/email';
import type { StoredContact } from '../contacts/enrichment/ports';
import type { ReferenceRecord } from '../contacts/enrichment/sources/reference-dataset';
import { ControlError } from './operation';
import type { ControlDependencies, Page, PassMarker, PersonReportRef, PersonStore } from './ports';

/**
 * Where one person's data is: the one lookup that erasure, export and a
 * contact's reports all use (docs/privacy.md#finding-a-persons-data), so
 * what one finds the others find. By email, the contact is the one whose id
 * the email derives (the spec's contact id), and the reports are those
 * carrying the email's person key; by contact id, the email is the stored
 * contact's, and a contact already gone leaves no email to find reports by
 * (nor the vendor's record: it is keyed by the email too).
 */

/** Whom an operation names: an email (normalized) or a contact id. */
export type PersonRef = { email: StoredEmail } | { contactId: string };

export interface FoundPerson {
  contactId: string;
  contact?: StoredContact;
  /** The person key of the email, when an email is known (given, or the contact's). */
  person?: string;
  /** The email itself, when known: what the vendor's record is keyed by. Never answered, logged or audited. */
  email?: StoredEmail;
}

/** The person store, or a 500 saying the function was deployed without it. */
export function peopleOf(deps: ControlDependencies): PersonStore {
  if (!deps.people) throw new ControlError(500, 'person operations are not configured on this control room (no keys or reports table)');
  return deps.people;
}

/** The contact and the person key a request names: one contact read, and the person key (no read after a container's first). */
export async function findPerson(deps: ControlDependencies, factoryId: string, ref: PersonRef): Promise<FoundPerson> {
  const people = peopleOf(deps);
  const contactId = 'email' in ref ? contactIdOf(factoryId, ref.email) : ref.contactId;
  const contact = await deps.store.getContact(factoryId, contactId);
  // A contact's email was stored in its stored form (only normalizeEmail makes one).
  const email = 'email' in ref ? ref.email : (contact?.email as StoredEmail | undefined);
  const person = email === undefined ? undefined : await people.personKey(factoryId, email);
  return { contactId, ...(contact ? { contact } : {}), ...(person ? { person } : {}), ...(email !== undefined ? { email } : {}) };
}

/** The vendor's record of the person (the reference table, shared by every factory); none without an email. */
export async function vendorRecordOf(deps: ControlDependencies, found: FoundPerson): Promise<ReferenceRecord | undefined> {
  return found.email === undefined ? undefined : peopleOf(deps).vendor.recordOf(found.email);
}

/** A contact's pass markers (an erased contact's included: they are keyed by its id). */
export const passesOf = (deps: ControlDependencies, factoryId: string, contactId: string): Promise<PassMarker[]> =>
  deps.store.passMarkers(factoryId, contactId);

/** One page of the person's reports, newest first; none without a person key. */
export async function reportPage(
  deps: ControlDependencies,
  factoryId: string,
  person: string | undefined,
  cursor: string | undefined,
  limit: number,
): Promise<Page<PersonReportRef>> {
  if (person === undefined) return { items: [] };
  return peopleOf(deps).reportsOf(factoryId, person, cursor, limit);
}

/** The reports of a page as the control room shows them, each with its kind, newest first. */
export async function reportViews(
  deps: ControlDependencies,
  factoryId: string,
  refs: readonly PersonReportRef[],
  now: Date,
): Promise<Record<string, unknown>[]> {
  if (refs.length === 0) return [];
  const reports = await peopleOf(deps).readReports(factoryId, refs, now.getTime());
  return reports;
}
