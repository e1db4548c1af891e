import * as z from 'zod/mini';
import { clearableField, type ClearableField } from '../contacts/domain/cleared';
import { contactCursor } from '../kernel/cursor';
import type { StoredContact } from '../contacts/enrichment/ports';
import type { ReferenceRecord } from '../contacts/enrichment/sources/reference-dataset';
import { contactIssues, type ContactIssue } from './affected-operations';
import { csvHeader, EXPORT_FORMATS, exportRow } from './export-format';
import { normalizeEmail } from '../kernel/email';
import { erasePerson, type Erasure, type ErasureRef } from './erase-person';
import { companyId, contactId, cursor, described, email, factoryId, limit, personKey } from './fields';
import { findPerson, passesOf, reportPage, reportViews, vendorRecordOf, type PersonRef } from './person-data';
import { ControlError, operation, withCursor } from './operation';
import type { ControlDependencies, Page, PersonStore } from './ports';
import { runClear } from './run-clear';
import { companyView, controlView, type ControlContact } from './view';
import type { ExportFormat } from './export-format';
import type { Company, PassMarker } from './ports';

/** Page sizes: lists answer at most LIST_MAX, an export page at most EXPORT_MAX (both also bounded in bytes). */
export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;
export const EXPORT_DEFAULT = 1000;
export const EXPORT_MAX = 5000;
export const REASON_MAX = 500;

/**
 * An answer stays under the function URL's 6 MB response limit with room to
 * spare: a page ends early (with a cursor) rather than grow past this.
 */
export const ANSWER_BUDGET_BYTES = 5_000_000;

/** A date (UTC midnight) or a date-time with Z or an offset: a time without a zone would mean different instants. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

function normalizedInstant(value: string): string {
  const time = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  // Date.parse rolls 2026-02-31 over into March: a day that does not exist is refused instead.
  if (Number.isNaN(time) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw new ControlError(400, `updatedSince "${value}" is not a real date`);
  }
  return new Date(time).toISOString();
}

function fieldsToClear(names: string[]): ClearableField[] {
  const fields = new Set<ClearableField>();
  for (const name of names) {
    const field = clearableField(name);
    if (!field) throw new ControlError(400, `field "${name}" cannot be cleared: the control room clears name, title, phone, page, location and company`);
    fields.add(field);
  }
  return [...fields];
}

/** Takes items while their serialized size fits the budget; a cursor at the last one taken when it cut the page short. */
function withinBudget<T>(factoryId: string, page: Page<T>, size: (item: T) => number, keyOf: (item: T) => string): Page<T> {
  let used = 0;
  const items: T[] = [];
  for (const item of page.items) {
    used += size(item);
    if (used > ANSWER_BUDGET_BYTES && items.length > 0) {
      return { items, next: contactCursor.encode(factoryId, keyOf(items[items.length - 1] as T)) };
    }
    items.push(item);
  }
  return { items, next: page.next };
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) + 1;

/** A page of contacts, each linked one with its company's domain (`domains`, by company id) after its id. */
function contactPage(factoryId: string, page: Page<StoredContact>, domains: ReadonlyMap<string, string> = new Map()) {
  const views = page.items.map((contact) => {
    const view = controlView(contact);
    const domain = contact.companyId === undefined ? undefined : domains.get(contact.companyId);
    return domain === undefined ? view : { ...view, companyDomain: domain };
  });
  const fitted = withinBudget<ControlContact>(factoryId, { items: views, next: page.next }, jsonBytes, (contact) => contact.id);
  return { contacts: fitted.items, ...withCursor(fitted.next) };
}

/** A contact page's first page of the person's reports, and an export's page (both bounded: a cursor goes on). */
export const REPORTS_SHOWN = 20;
export const PERSON_REPORTS_MAX = 500;

/** The person a request names: exactly one of email and contactId; the email normalized as the contacts API does. */
/** An erasure's person: by email or contact id, or by the person key an earlier erasure audited (its reports only). */
function erasureRef(request: { email?: string; contactId?: string; personKey?: string }): ErasureRef {
  if (request.personKey === undefined) return personRef(request);
  if (request.email !== undefined || request.contactId !== undefined)
    throw new ControlError(400, 'name the person: email, contactId or personKey, one of them');
  return { personKey: request.personKey };
}

function personRef(request: { email?: string; contactId?: string }): PersonRef {
  if ((request.email === undefined) === (request.contactId === undefined)) throw new ControlError(400, 'name the person: email or contactId, one of them');
  if (request.contactId !== undefined) return { contactId: request.contactId };
  const checked = normalizeEmail(request.email as string);
  if (!checked.ok) throw new ControlError(400, `email: ${checked.problem}`);
  return { email: checked.email };
}

const notFound = (factoryId: string, contactId: string) => new ControlError(404, `no contact ${contactId} in ${factoryId}`);

/** A page of the reports the contact's email sent, newest first: none when the control room has no person store. */
async function personReports(
  deps: (ControlDependencies & { people: PersonStore }) | undefined,
  factoryId: string,
  contactEmail: string,
  after: string | undefined,
  now: Date,
): Promise<{ reports?: Record<string, unknown>[]; reportsCursor?: string }> {
  if (!deps) return {};
  const person = await deps.people.personKey(factoryId, contactEmail);
  const page = await reportPage(deps, factoryId, person, after, REPORTS_SHOWN);
  return { reports: await reportViews(deps, factoryId, page.items, now), ...(page.next === undefined ? {} : { reportsCursor: page.next }) };
}

/** The contacts and companies of a factory (docs/control-room.md#lists-and-exports, #clearing-a-field). */
export const CONTACT_OPERATIONS = {
  'contacts.list': operation({
    request: z.strictObject({
      factoryId,
      enriched: z.optional(z.boolean({ error: 'enriched must be true or false' })),
      updatedSince: z.optional(
        described(
          z
            .string({ error: 'updatedSince must be a string' })
            .check(z.regex(ISO_INSTANT, { error: 'updatedSince must be an ISO 8601 date or date-time with a zone, like 2026-11-21 or 2026-11-21T09:30:00Z' })),
          { placeholder: 'ISO date' },
        ),
      ),
      limit: limit(LIST_MAX),
      cursor,
    }),
    defaults: (request) => ({
      ...request,
      limit: request.limit ?? LIST_DEFAULT,
      ...(request.updatedSince === undefined ? {} : { updatedSince: normalizedInstant(request.updatedSince) }),
    }),
    run: async (request, { deps }) => {
      const filter = { enriched: request.enriched, updatedSince: request.updatedSince };
      const page = await deps.store.listContacts(request.factoryId, { filter, cursor: request.cursor, limit: request.limit });
      const linked = [...new Set(page.items.flatMap((contact) => (contact.companyId === undefined ? [] : [contact.companyId])))];
      const body = contactPage(request.factoryId, page, linked.length === 0 ? undefined : await deps.store.companyDomains(request.factoryId, linked));
      return { body, audit: { count: body.contacts.length, more: body.cursor !== undefined } };
    },
  }),

  'contacts.show': operation({
    // reportsCursor: the next page of the person's reports (the answer's own), the contact shown again with it.
    request: z.strictObject({
      factoryId,
      contactId,
      reportsCursor: z.optional(
        described(z.string({ error: 'reportsCursor must be the string a previous answer returned' }), { flag: 'cursor', placeholder: 'C' }),
      ),
    }),
    run: async ({ factoryId, contactId, reportsCursor }, { deps, now }) => {
      const contact = await deps.store.getContact(factoryId, contactId);
      if (!contact) throw notFound(factoryId, contactId);
      const [company, passes, reports, issues] = await Promise.all([
        contact.companyId === undefined ? undefined : deps.store.findCompany(factoryId, contact.companyId),
        deps.store.passMarkers(factoryId, contact.id),
        personReports(deps.people ? { ...deps, people: deps.people } : undefined, factoryId, contact.email, reportsCursor, now),
        contactIssues(deps.issues, factoryId, contact.id, now.getTime()),
      ]);
      return {
        body: { contact: controlView(contact), ...(company ? { company: companyView(company) } : {}), passes, issues: issues.issues, ...reports },
        audit: reports.reports ? { reports: reports.reports.length } : {},
      };
    },
  }),

  'contacts.erase': operation({
    request: z.strictObject({ factoryId, email, contactId: z.optional(contactId), personKey }),
    defaults: (request) => ({ factoryId: request.factoryId, person: erasureRef(request) }),
    run: async ({ factoryId, person }, { deps, now, keepGoing }) => {
      const erased = await erasePerson(deps, factoryId, person, now, keepGoing);
      const { contactId: id, personKey: key, ...found } = erased;
      const removed = found.contact || found.vendorRecord || found.passMarkers + found.events + found.featureRequests + found.feedback + found.issues > 0;
      const ids = { ...(id ? { contactId: id } : {}), ...(key ? { personKey: key } : {}) };
      return {
        body: { factoryId, ...ids, erased: removed, ...found },
        // That an erasure happened, by whom (the principal, added by the handler), and the email's keyed hash: never the email.
        audit: { erasure: true, ...ids, ...found },
      };
    },
  }),

  'contacts.export-person': operation({
    request: z.strictObject({ factoryId, email, contactId: z.optional(contactId), limit: limit(PERSON_REPORTS_MAX), cursor }),
    defaults: (request) => ({ factoryId: request.factoryId, person: personRef(request), limit: request.limit ?? PERSON_REPORTS_MAX, cursor: request.cursor }),
    run: async ({ factoryId, person, limit: pageSize, cursor: after }, { deps, now }) => {
      const found = await findPerson(deps, factoryId, person);
      const first = after === undefined;
      const [passes, page, vendorRecord, issues] = await Promise.all([
        passesOf(deps, factoryId, found.contactId),
        reportPage(deps, factoryId, found.person, after, pageSize),
        first ? vendorRecordOf(deps, found) : undefined,
        first ? contactIssues(deps.issues, factoryId, found.contactId, now.getTime()) : undefined,
      ]);
      const reports = await reportViews(deps, factoryId, page.items, now);
      return {
        body: {
          factoryId,
          contactId: found.contactId,
          ...(found.person ? { personKey: found.person } : {}),
          // Everything the contact item holds: the enrichment record, cleared values and who cleared them included.
          ...(found.contact && after === undefined ? { contact: found.contact } : {}),
          ...(after === undefined ? { passes } : {}),
          // The vendor's record of the email, as the reference table holds it (shared by every factory).
          ...(vendorRecord ? { vendorRecord } : {}),
          // The issues the person was counted in (first page only), with their share of each.
          ...(issues ? { issues: issues.issues } : {}),
          reports,
          ...withCursor(page.next),
        },
        audit: {
          contactId: found.contactId,
          ...(found.person ? { personKey: found.person } : {}),
          contact: found.contact !== undefined,
          vendorRecord: vendorRecord !== undefined,
          reports: reports.length,
          more: page.next !== undefined,
        },
      };
    },
  }),

  'contacts.export': operation({
    request: z.strictObject({
      factoryId,
      format: z.optional(z.enum(EXPORT_FORMATS, { error: 'format must be "jsonl" or "csv"' })),
      limit: limit(EXPORT_MAX),
      cursor,
    }),
    defaults: (request) => ({ ...request, format: request.format ?? 'jsonl', limit: request.limit ?? EXPORT_DEFAULT }),
    run: async (request, { deps }) => {
      const { factoryId, format } = request;
      const page = await deps.store.listContacts(factoryId, { filter: {}, cursor: request.cursor, limit: request.limit });
      const rows = page.items.map((contact) => ({ id: contact.id, line: exportRow(format, controlView(contact)) }));
      // The header goes with the first page only, so the pages concatenated are one file.
      const header = format === 'csv' && request.cursor === undefined ? csvHeader() : '';
      const fitted = withinBudget(
        factoryId,
        { items: rows, next: page.next },
        (row) => jsonBytes(row.line),
        (row) => row.id,
      );
      const data = header + fitted.items.map((row) => row.line).join('');
      return {
        body: { format, count: fitted.items.length, data, ...withCursor(fitted.next) },
        audit: { format, count: fitted.items.length, more: fitted.next !== undefined },
      };
    },
  }),

  'contacts.clear': operation({
    request: z.strictObject({
      factoryId,
      contactId,
      fields: described(
        z
          .array(z.string({ error: 'fields must be field names' }), { error: 'fields must be a list of field names' })
          .check(z.minLength(1, { error: 'fields must name at least one field' })),
        { placeholder: 'name' },
      ),
      reason: z.optional(
        z.string({ error: 'reason must be a string' }).check(z.maxLength(REASON_MAX, { error: `reason must be at most ${REASON_MAX} characters` })),
      ),
    }),
    defaults: (request) => ({ ...request, fields: fieldsToClear(request.fields) }),
    run: async (request, { deps, caller, now }) => {
      const { factoryId, contactId, fields, reason } = request;
      const result = await runClear(deps.store, factoryId, contactId, { fields, by: caller.principal, reason, at: now.toISOString() });
      if (result.outcome === 'not-found') throw notFound(factoryId, contactId);
      const { cleared, alreadyEmpty, changed } = result;
      return {
        body: { contact: controlView(result.contact), cleared, alreadyEmpty, changed },
        // Field names only: the values cleared never reach the log.
        audit: { fields, cleared, alreadyEmpty, changed, reasonGiven: reason !== undefined },
      };
    },
  }),

  'companies.list': operation({
    request: z.strictObject({ factoryId, limit: limit(LIST_MAX), cursor }),
    defaults: (request) => ({ ...request, limit: request.limit ?? LIST_DEFAULT }),
    run: async (request, { deps }) => {
      const page = await deps.store.listCompanies(request.factoryId, request.cursor, request.limit);
      return {
        body: { companies: page.items.map(companyView), ...withCursor(page.next) },
        audit: { count: page.items.length, more: page.next !== undefined },
      };
    },
  }),

  'companies.contacts': operation({
    request: z.strictObject({ factoryId, companyId, limit: limit(LIST_MAX), cursor }),
    defaults: (request) => ({ ...request, limit: request.limit ?? LIST_DEFAULT }),
    run: async (request, { deps }) => {
      const page = await deps.store.contactsOfCompany(request.factoryId, request.companyId, request.cursor, request.limit);
      const body = contactPage(request.factoryId, page);
      return { body, audit: { companyId: request.companyId, count: body.contacts.length, more: body.cursor !== undefined } };
    },
  }),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
/** contacts.list and companies.contacts: a page of contacts in id order. */
export interface ContactListAnswer {
  contacts: ControlContact[];
  cursor?: string;
}
export interface ContactShowAnswer {
  contact: ControlContact;
  /** The linked company, when the contact has one and it is found. */
  company?: Company;
  passes: PassMarker[];
  /** The issues the contact was counted in, open first, with their status and the contact's share (docs/report-issues.md#who-is-affected). */
  issues: ContactIssue[];
  /** The bug reports and feature requests the contact's email sent, newest first (a page); absent without a person store. */
  reports?: Record<string, unknown>[];
  /** The next page of `reports`, when more remain. */
  reportsCursor?: string;
}
/** contacts.erase: what was found and removed (the erasure's own counts and ids), for which factory, and whether anything was. */
export interface ContactEraseAnswer extends Erasure {
  factoryId: string;
  erased: boolean;
}
/** contacts.export-person: everything stored about one person (the contact and pass markers on the first page only). */
export interface ContactExportPersonAnswer {
  factoryId: string;
  contactId: string;
  personKey?: string;
  contact?: StoredContact;
  passes?: PassMarker[];
  /** The vendor's record of the email (first page only), when the vendor knows them. */
  vendorRecord?: ReferenceRecord;
  /** The issues the person was counted in (first page only). */
  issues?: ContactIssue[];
  reports: Record<string, unknown>[];
  cursor?: string;
}
export interface ContactExportAnswer {
  format: ExportFormat;
  count: number;
  /** The page's rows (and on the first CSV page, the header), to be written as they are. */
  data: string;
  cursor?: string;
}
export interface ContactClearAnswer {
  contact: ControlContact;
  cleared: ClearableField[];
  alreadyEmpty: ClearableField[];
  changed: ClearableField[];
}
export interface CompanyListAnswer {
  companies: Company[];
  cursor?: string;
}
