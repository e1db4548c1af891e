import { InvalidCursorError, StorageUnavailableError } from '../domain/errors';
import { AdminNotFoundError, AdminRequestError, runAdmin, type AdminDependencies } from './admin-operations';
import { runAlertOperation, type AlertOperationsDependencies } from './alert-operations';
import { isAlertRequest } from './alert-requests';
import { encodeCursor } from '../enrichment/cursor';
import type { StoredContact } from '../enrichment/ports';
import { runBulk } from '../enrichment/run-bulk';
import { runPass, type EnrichmentContext } from '../enrichment/run-pass';
import { csvHeader, exportRow } from './export-format';
import type { IssueStore } from '../issues/issue';
import { IssueNotFoundError, runIssueOperation } from './issue-operations';
import type { ControlStore, Page } from './ports';
import { InvalidRequestError, parseControlRequest, type ControlRequest } from './request';
import { runClear } from './run-clear';
import { companyView, controlView, type ControlContact } from './view';

export interface ControlDependencies extends AdminDependencies {
  store: ControlStore;
  enrichment: EnrichmentContext;
  /** Bug-report issues of the ingest API (docs/report-issues.md). */
  issues: IssueStore;
  /** Issue alerts: webhook destinations, their deliveries, the spike settings (docs/alerts.md). */
  alerts?: AlertOperationsDependencies;
  now?: () => Date;
}

/** Who asks: the caller's IAM principal (on AWS, the ARN the function URL's IAM auth verified). */
export interface Caller {
  principal: string;
}

export interface RunOptions {
  /** Bulk runs: asked before each new page; false ends the call with a cursor. */
  keepGoing?: () => boolean;
}

/** What the audit line says about an operation: names and counts, never a field's value. */
export type AuditFields = Record<string, string | number | boolean | string[] | undefined>;

/** Every answer: an HTTP status and a JSON object, `{"error": "…"}` when it is not 200. */
export interface ControlAnswer {
  status: number;
  body: Record<string, unknown>;
  audit: AuditFields;
}

/** No such contact (or company) in the factory: 404. */
export class NotFoundError extends Error {
  override readonly name = 'NotFoundError';
}

/**
 * An answer stays under the function URL's 6 MB response limit with room to
 * spare: a page ends early (with a cursor) rather than grow past this.
 */
export const ANSWER_BUDGET_BYTES = 5_000_000;

/** Takes items while their serialized size fits the budget; a cursor at the last one taken when it cut the page short. */
function withinBudget<T>(factoryId: string, page: Page<T>, size: (item: T) => number, keyOf: (item: T) => string): Page<T> {
  let used = 0;
  const items: T[] = [];
  for (const item of page.items) {
    used += size(item);
    if (used > ANSWER_BUDGET_BYTES && items.length > 0) {
      return { items, next: encodeCursor(factoryId, keyOf(items[items.length - 1] as T)) };
    }
    items.push(item);
  }
  return { items, next: page.next };
}

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value)) + 1;
const withCursor = (next: string | undefined) => (next === undefined ? {} : { cursor: next });

function contactPage(factoryId: string, page: Page<StoredContact>) {
  const views = page.items.map(controlView);
  const fitted = withinBudget<ControlContact>(factoryId, { items: views, next: page.next }, jsonBytes, (contact) => contact.id);
  return { contacts: fitted.items, ...withCursor(fitted.next) };
}

/** Runs one parsed request. Throws NotFoundError, InvalidCursorError, StorageUnavailableError. */
async function run(deps: ControlDependencies, request: ControlRequest, caller: Caller, options: RunOptions): Promise<{ body: Record<string, unknown>; audit: AuditFields }> {
  const { store, enrichment } = deps;
  const { factoryId } = request;
  switch (request.operation) {
    case 'contacts.list': {
      const filter = { enriched: request.enriched, updatedSince: request.updatedSince };
      const page = await store.listContacts(factoryId, { filter, cursor: request.cursor, limit: request.limit });
      const body = contactPage(factoryId, page);
      return { body, audit: { count: body.contacts.length, more: body.cursor !== undefined } };
    }
    case 'contacts.show': {
      const contact = await store.getContact(factoryId, request.contactId);
      if (!contact) throw new NotFoundError(`no contact ${request.contactId} in ${factoryId}`);
      const [company, passes] = await Promise.all([
        contact.companyId === undefined ? undefined : store.findCompany(factoryId, contact.companyId),
        store.passMarkers(factoryId, contact.id),
      ]);
      return {
        body: { contact: controlView(contact), ...(company ? { company: companyView(company) } : {}), passes },
        audit: { contactId: contact.id },
      };
    }
    case 'contacts.export': {
      const page = await store.listContacts(factoryId, { filter: {}, cursor: request.cursor, limit: request.limit });
      const rows = page.items.map((contact) => ({ id: contact.id, line: exportRow(request.format, controlView(contact)) }));
      // The header goes with the first page only, so the pages concatenated are one file.
      const header = request.format === 'csv' && request.cursor === undefined ? csvHeader() : '';
      const fitted = withinBudget(factoryId, { items: rows, next: page.next }, (row) => jsonBytes(row.line), (row) => row.id);
      const data = header + fitted.items.map((row) => row.line).join('');
      return {
        body: { format: request.format, count: fitted.items.length, data, ...withCursor(fitted.next) },
        audit: { format: request.format, count: fitted.items.length, more: fitted.next !== undefined },
      };
    }
    case 'contacts.clear': {
      const at = (deps.now?.() ?? new Date()).toISOString();
      const result = await runClear(store, factoryId, request.contactId, {
        fields: request.fields,
        by: caller.principal,
        reason: request.reason,
        at,
      });
      if (result.outcome === 'not-found') throw new NotFoundError(`no contact ${request.contactId} in ${factoryId}`);
      const { cleared, alreadyEmpty, changed } = result;
      return {
        body: { contact: controlView(result.contact), cleared, alreadyEmpty, changed },
        // Field names only: the values cleared never reach the log.
        audit: { contactId: request.contactId, fields: request.fields, cleared, alreadyEmpty, changed, reasonGiven: request.reason !== undefined },
      };
    }
    case 'companies.list': {
      const page = await store.listCompanies(factoryId, request.cursor, request.limit);
      return {
        body: { companies: page.items.map(companyView), ...withCursor(page.next) },
        audit: { count: page.items.length, more: page.next !== undefined },
      };
    }
    case 'companies.contacts': {
      const page = await store.contactsOfCompany(factoryId, request.companyId, request.cursor, request.limit);
      const body = contactPage(factoryId, page);
      return { body, audit: { companyId: request.companyId, count: body.contacts.length, more: body.cursor !== undefined } };
    }
    case 'enrichment.refresh': {
      const result = await runPass(enrichment, factoryId, request.contactId, { bulk: false, passId: request.passId });
      return { body: { ...result }, audit: { contactId: request.contactId, outcome: result.outcome, billed: result.billed } };
    }
    case 'enrichment.bulk': {
      let pages = 0;
      const keepGoing = () => (request.pages === undefined || ++pages < request.pages) && (options.keepGoing?.() ?? true);
      const result = await runBulk(enrichment, factoryId, { cursor: request.cursor, keepGoing });
      return { body: { ...result }, audit: { ...result.summary, done: result.done } };
    }
    case 'enrichment.usage':
      return { body: { factoryId, periods: await enrichment.store.usage(factoryId) }, audit: {} };
    case 'issues.list':
    case 'issues.show':
    case 'issues.resolve':
    case 'issues.ignore':
    case 'issues.reopen':
      return runIssueOperation(deps.issues, request, caller, deps.now?.() ?? new Date());
    default:
      if (isAlertRequest(request)) return runAlertOperation(deps, request, caller, deps.now?.() ?? new Date());
      return runAdmin(deps, request, deps.now?.() ?? new Date());
  }
}

const failure = (status: number, error: string, audit: AuditFields): ControlAnswer => ({ status, body: { error }, audit });

/**
 * One control-room call, start to end: reads the request, runs it for the
 * caller, and answers with a status and one JSON object. Never throws:
 * a bad request is 400, an unknown contact 404, storage trouble 503
 * (retrying is safe), anything else 500 (its class in the audit fields).
 */
export async function handleControlRequest(
  deps: ControlDependencies,
  event: unknown,
  caller: Caller,
  options: RunOptions = {},
): Promise<ControlAnswer> {
  let request: ControlRequest;
  try {
    request = parseControlRequest(event);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    // What the caller named, for the audit line, when it is a plausible name (never the rest of the body).
    const named = (event as { operation?: unknown } | null)?.operation;
    const operation = typeof named === 'string' && /^[a-z.]{1,40}$/.test(named) ? named : undefined;
    return failure(400, error.message, { ...(operation ? { operation } : {}), principal: caller.principal });
  }
  const audit: AuditFields = {
    operation: request.operation,
    factoryId: request.factoryId,
    ...('contactId' in request ? { contactId: request.contactId } : {}),
    ...('issueId' in request ? { issueId: request.issueId } : {}),
    ...('destinationId' in request && request.destinationId !== undefined ? { destinationId: request.destinationId } : {}),
    principal: caller.principal,
  };
  try {
    const done = await run(deps, request, caller, options);
    return { status: 200, body: done.body, audit: { ...audit, ...done.audit } };
  } catch (error) {
    if (error instanceof InvalidCursorError) return failure(400, error.message, audit);
    if (error instanceof NotFoundError || error instanceof IssueNotFoundError || error instanceof AdminNotFoundError) return failure(404, error.message, audit);
    if (error instanceof AdminRequestError) return failure(400, error.message, audit);
    if (error instanceof StorageUnavailableError) {
      return failure(503, 'storage unavailable: retrying the same request is safe', { ...audit, errorClass: error.name, error: error.message });
    }
    const name = error instanceof Error ? error.name : typeof error;
    return failure(500, 'internal error: see the function log', { ...audit, errorClass: name, error: error instanceof Error ? error.message : String(error) });
  }
}
