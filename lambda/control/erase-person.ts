import { contactOfEvent } from '../ingest/issues/affected';
import { StorageUnavailableError } from '../kernel/errors';
import type { ControlDependencies, PersonReportRef } from './ports';
import { findPerson, passesOf, peopleOf, reportPage, type PersonRef } from './person-data';

/** Reads of the contact an erasure makes, the first included, before a contact that keeps changing is a 503 to retry. */
const CONTACT_ATTEMPTS = 5;
/** Index entries read per page while forgetting a person's reports. */
const REPORT_PAGE = 100;

/**
 * Whom an erasure names: an email or a contact id (PersonRef), or a person key alone, which an erasure's audit line
 * records: how the erasure of a person known only from bug reports is applied again after a restore.
 */
export type ErasureRef = PersonRef | { personKey: string };

/** What an erasure found and removed: counts and ids only, never a value or the email. */
export interface Erasure {
  /** The contact's id; none when the person was named by their person key alone (no email to derive it from). */
  contactId?: string;
  /** The person key of the email (a keyed hash), when an email was known. */
  personKey?: string;
  contact: boolean;
  passMarkers: number;
  /** The vendor's record of the email, deleted from the reference table (every factory's enrichment reads it). */
  vendorRecord: boolean;
  events: number;
  featureRequests: number;
  /** The person's feedback deleted (docs/feedback.md#erasure). */
  feedback: number;
  /**
   * The issues the person was counted in and taken out of (docs/report-issues.md#who-is-affected). Named by person key
   * alone, they are found through the person's reports: each report's email derives the contact id the issues know
   * the person by.
   */
  issues: number;
  /** False when the call ran out of time before every report was seen: erasing again finishes (the forgotten ones are no longer found). */
  complete: boolean;
}

/**
 * Erases a person (docs/privacy.md#erasure): the contact with everything it
 * holds (enrichment record, cleared values and their audit copies), its pass
 * markers, the vendor's record of the email (after suppressing the email, so
 * that no later load adds it back), and the reporter's identity on every
 * report carrying the email's person key. The contact is deleted only as
 * read (its `updatedAt`): when an upsert or a clear lands between the read
 * and the delete, the delete is refused and the contact read again, so the
 * erasure removes the contact as it is, whole, and an upsert after it
 * creates a new one (201). Companies stay. Each step is idempotent: an erasure cut short is finished by the
 * next; erasing someone unknown finds nothing and removes nothing.
 */
export async function erasePerson(deps: ControlDependencies, factoryId: string, ref: ErasureRef, now: Date, keepGoing: () => boolean): Promise<Erasure> {
  if ('personKey' in ref) {
    // By the key alone there is no email given: no contact to delete, no vendor record to find. The reports carry the
    // key, and each still holds the email it was sent with: the issues' pairs are found by the contact id it derives.
    const issues = new Set<string>();
    const seen = new Set<string>();
    const forgetPairs = async (contactId: string) => {
      for (const issueId of await deps.issues.forgetPerson(factoryId, contactId, now.getTime())) issues.add(issueId);
    };
    const forgotten = await forgetReports(deps, factoryId, ref.personKey, keepGoing, async (refs) => {
      const reports = await peopleOf(deps).readReports(factoryId, refs, now.getTime());
      for (const contactId of contactIdsOf(factoryId, reports)) {
        if (seen.has(contactId)) continue;
        seen.add(contactId);
        // Before the strip too: an erasure cut short after it would find no email left to derive the contact id from.
        await forgetPairs(contactId);
      }
    });
    // After the strip, again: a tally that wrote a pair before the strip is undone here; one after it undoes its own
    // write (docs/privacy.md#an-erasure-and-the-tally).
    for (const contactId of seen) await forgetPairs(contactId);
    return { personKey: ref.personKey, contact: false, passMarkers: 0, vendorRecord: false, issues: issues.size, ...forgotten };
  }
  const people = peopleOf(deps);
  let found = await findPerson(deps, factoryId, ref);
  let contact = false;
  for (let attempt = 1; found.contact; attempt += 1) {
    if ((await people.deleteContact(factoryId, found.contactId, found.contact.updatedAt)) === 'deleted') {
      contact = true;
      break;
    }
    // A 503: the same request again is safe (every step is idempotent).
    if (attempt >= CONTACT_ATTEMPTS)
      throw new StorageUnavailableError('DeleteItem (contact erasure)', new Error(`the contact changed ${attempt} times while it was being erased`));
    // Changed meanwhile (or gone): read it again; a person named by contact id keeps the email already read.
    const again = await findPerson(deps, factoryId, ref);
    found = { ...again, person: again.person ?? found.person, email: again.email ?? found.email };
  }

  const passes = await passesOf(deps, factoryId, found.contactId);
  await people.deletePassMarkers(
    factoryId,
    found.contactId,
    passes.map((pass) => pass.passId),
  );
  const vendorRecord = found.email === undefined ? false : await people.vendor.erase(found.email, now.toISOString());
  const forgotten = await forgetReports(deps, factoryId, found.person, keepGoing);
  // Out of every issue's people (the counts taken down by one): the contact id is the person there, email or not.
  // After the reports are stripped, never before: a tally that counts one of them later sees the strip and takes
  // back its own pair (docs/privacy.md#an-erasure-and-the-tally).
  const issues = (await deps.issues.forgetPerson(factoryId, found.contactId, now.getTime())).length;

  return {
    contactId: found.contactId,
    ...(found.person ? { personKey: found.person } : {}),
    contact,
    passMarkers: passes.length,
    vendorRecord,
    issues,
    ...forgotten,
  };
}

/**
 * Removes the reporter from every report carrying `person`, page after page while there is time; none without a key.
 * `beforeForgetting`, when given, first hears each page's reports while they still hold the email: an erasure cut
 * short between the two finds them again when run again.
 */
async function forgetReports(
  deps: ControlDependencies,
  factoryId: string,
  person: string | undefined,
  keepGoing: () => boolean,
  beforeForgetting?: (refs: readonly PersonReportRef[]) => Promise<void>,
): Promise<Pick<Erasure, 'events' | 'featureRequests' | 'feedback' | 'complete'>> {
  const people = peopleOf(deps);
  let events = 0;
  let featureRequests = 0;
  let feedback = 0;
  let cursor: string | undefined;
  do {
    if (!keepGoing()) return { events, featureRequests, feedback, complete: false };
    const page = await reportPage(deps, factoryId, person, cursor, REPORT_PAGE);
    if (beforeForgetting && page.items.length > 0) await beforeForgetting(page.items);
    const forgotten = await Promise.all(
      page.items.map(async (report) => ((await people.forgetReporter(factoryId, report, person as string)) ? report.kind : undefined)),
    );
    events += forgotten.filter((kind) => kind === 'events').length;
    featureRequests += forgotten.filter((kind) => kind === 'feature-requests').length;
    feedback += forgotten.filter((kind) => kind === 'feedback').length;
    cursor = page.next;
  } while (cursor !== undefined);
  return { events, featureRequests, feedback, complete: true };
}

/** The distinct contact ids the reports' emails derive (as the tally derived them when it counted the person). */
function contactIdsOf(factoryId: string, reports: readonly Record<string, unknown>[]): string[] {
  const ids = new Set<string>();
  for (const report of reports) {
    const reporter = report.reporter as { email?: unknown } | undefined;
    const email = typeof reporter?.email === 'string' ? reporter.email : undefined;
    const id = email === undefined ? undefined : contactOfEvent({ factoryId, reporter: { email } });
    if (id !== undefined) ids.add(id);
  }
  return [...ids];
}
