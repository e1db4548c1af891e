import * as z from 'zod/mini';
import { clearableField, type ClearableField } from '../domain/cleared';
import { ADMIN_OPERATIONS, type AdminRequest } from './admin-requests';
import { ALERT_OPERATIONS, type AlertRequest } from './alert-requests';
import { EXPORT_FORMATS, type ExportFormat } from './export-format';
import { issueOperations, withIssueDefaults, type IssueRequest } from './issue-requests';
import { optionalWholeNumber } from './whole-number';

/** Page sizes: lists answer at most LIST_MAX, an export page at most EXPORT_MAX (both also bounded in bytes). */
export const LIST_DEFAULT = 100;
export const LIST_MAX = 1000;
export const EXPORT_DEFAULT = 1000;
export const EXPORT_MAX = 5000;
export const REASON_MAX = 500;
export const BULK_PAGES_MAX = 1000;

const factoryId = z.string({ error: 'factoryId must be a string like "fac_acme"' }).check(
  z.regex(/^fac_[A-Za-z0-9_-]{1,64}$/, { error: 'factoryId must look like "fac_acme"' }),
);
const contactId = z.string({ error: 'contactId must be a string' }).check(
  z.regex(/^ct_[0-9a-f]{16}$/, { error: 'contactId must be a contact id: ct_ + 16 hex characters' }),
);
const companyId = z.string({ error: 'companyId must be a string' }).check(
  z.regex(/^co_[0-9a-f]{16}$/, { error: 'companyId must be a company id: co_ + 16 hex characters' }),
);
const cursor = z.optional(z.string({ error: 'cursor must be the string a previous answer returned' }));
const limit = (max: number) => optionalWholeNumber('limit', max);
const passId = z.optional(
  z.string().check(z.regex(/^[A-Za-z0-9-]{1,36}$/, { error: 'passId must be 1-36 letters, digits or dashes (a UUID fits)' })),
);
/** A date (UTC midnight) or a date-time with Z or an offset: a time without a zone would mean different instants. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

const operations = {
  'contacts.list': z.strictObject({
    operation: z.literal('contacts.list'),
    factoryId,
    enriched: z.optional(z.boolean({ error: 'enriched must be true or false' })),
    updatedSince: z.optional(
      z.string({ error: 'updatedSince must be a string' }).check(
        z.regex(ISO_INSTANT, { error: 'updatedSince must be an ISO 8601 date or date-time with a zone, like 2026-11-21 or 2026-11-21T09:30:00Z' }),
      ),
    ),
    limit: limit(LIST_MAX),
    cursor,
  }),
  'contacts.show': z.strictObject({ operation: z.literal('contacts.show'), factoryId, contactId }),
  'contacts.export': z.strictObject({
    operation: z.literal('contacts.export'),
    factoryId,
    format: z.optional(z.enum(EXPORT_FORMATS, { error: 'format must be "jsonl" or "csv"' })),
    limit: limit(EXPORT_MAX),
    cursor,
  }),
  'contacts.clear': z.strictObject({
    operation: z.literal('contacts.clear'),
    factoryId,
    contactId,
    fields: z
      .array(z.string({ error: 'fields must be field names' }), { error: 'fields must be a list of field names' })
      .check(z.minLength(1, { error: 'fields must name at least one field' })),
    reason: z.optional(
      z.string({ error: 'reason must be a string' }).check(z.maxLength(REASON_MAX, { error: `reason must be at most ${REASON_MAX} characters` })),
    ),
  }),
  'companies.list': z.strictObject({ operation: z.literal('companies.list'), factoryId, limit: limit(LIST_MAX), cursor }),
  'companies.contacts': z.strictObject({
    operation: z.literal('companies.contacts'),
    factoryId,
    companyId,
    limit: limit(LIST_MAX),
    cursor,
  }),
  'enrichment.refresh': z.strictObject({ operation: z.literal('enrichment.refresh'), factoryId, contactId, passId }),
  'enrichment.bulk': z.strictObject({
    operation: z.literal('enrichment.bulk'),
    factoryId,
    cursor,
    // At most this many pages (of 100 contacts) in this call, then a cursor: a UI shows progress between calls.
    pages: limit(BULK_PAGES_MAX),
  }),
  'enrichment.usage': z.strictObject({ operation: z.literal('enrichment.usage'), factoryId }),
  ...issueOperations(factoryId),
  ...ADMIN_OPERATIONS,
  ...ALERT_OPERATIONS,
} as const;

export type OperationName = keyof typeof operations;
export const OPERATION_NAMES = Object.keys(operations) as OperationName[];

type Parsed<K extends OperationName> = z.output<(typeof operations)[K]>;

/** A request as the operations take it: named, checked, with defaults applied. */
export type ControlRequest =
  | (Omit<Parsed<'contacts.list'>, 'limit'> & { limit: number })
  | Parsed<'contacts.show'>
  | (Omit<Parsed<'contacts.export'>, 'format' | 'limit'> & { format: ExportFormat; limit: number })
  | (Omit<Parsed<'contacts.clear'>, 'fields'> & { fields: ClearableField[] })
  | (Omit<Parsed<'companies.list'>, 'limit'> & { limit: number })
  | (Omit<Parsed<'companies.contacts'>, 'limit'> & { limit: number })
  | Parsed<'enrichment.refresh'>
  | Parsed<'enrichment.bulk'>
  | Parsed<'enrichment.usage'>
  | IssueRequest
  | AdminRequest
  | AlertRequest;

/** A request the control room must fix: answered 400 `{"error"}` with this message. */
export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

const LEGACY_HINT = 'a refresh takes {factoryId, contactId, passId?}, a bulk run {factoryId, cursor?}';

function problems(error: z.core.$ZodError, hint: string): string {
  return error.issues
    .map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: ${hint}`
        : issue.message,
    )
    .join('; ');
}

/**
 * The enrichment function's request shapes, from before the control room
 * named its operations: `{factoryId, contactId, passId?}` (refresh) and
 * `{factoryId, cursor?}` (bulk). Strict: a misspelt key is an error, never a bulk run.
 */
function parseLegacy(event: Record<string, unknown>): ControlRequest {
  const wantsRefresh = 'contactId' in event;
  const operation = wantsRefresh ? 'enrichment.refresh' : 'enrichment.bulk';
  const result = operations[operation].safeParse({ operation, ...event });
  if (!result.success) throw new InvalidRequestError(problems(result.error, LEGACY_HINT));
  return result.data;
}

function normalizedInstant(value: string): string {
  const time = Date.parse(value);
  const [year, month, day] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const calendar = new Date(Date.UTC(year, month - 1, day));
  // Date.parse rolls 2026-02-31 over into March: a day that does not exist is refused instead.
  if (Number.isNaN(time) || calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) {
    throw new InvalidRequestError(`updatedSince "${value}" is not a real date`);
  }
  return new Date(time).toISOString();
}

function fieldsToClear(names: string[]): ClearableField[] {
  const fields = new Set<ClearableField>();
  for (const name of names) {
    const field = clearableField(name);
    if (!field) {
      throw new InvalidRequestError(`field "${name}" cannot be cleared: the control room clears name, title, phone, page, location and company`);
    }
    fields.add(field);
  }
  return [...fields];
}

/**
 * Reads what the control room sent: `{"operation": "contacts.list", …}`
 * and the others of OPERATION_NAMES, or an old enrichment shape without
 * `operation`. Every problem is an InvalidRequestError saying what to fix.
 */
export function parseControlRequest(event: unknown): ControlRequest {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    throw new InvalidRequestError(`expected a JSON object: {"operation": one of ${OPERATION_NAMES.join(', ')}, "factoryId", …}`);
  }
  const body = event as Record<string, unknown>;
  if (!('operation' in body)) return parseLegacy(body);
  const name = body.operation;
  if (typeof name !== 'string' || !(name in operations)) {
    throw new InvalidRequestError(`operation must be one of ${OPERATION_NAMES.join(', ')}`);
  }
  const operation = name as OperationName;
  const result = operations[operation].safeParse(body);
  if (!result.success) throw new InvalidRequestError(problems(result.error, `${operation} takes ${Object.keys(operations[operation].shape).join(', ')}`));
  const request = result.data;
  switch (request.operation) {
    case 'contacts.list':
      return {
        ...request,
        limit: request.limit ?? LIST_DEFAULT,
        ...(request.updatedSince === undefined ? {} : { updatedSince: normalizedInstant(request.updatedSince) }),
      };
    case 'contacts.export':
      return { ...request, format: request.format ?? 'jsonl', limit: request.limit ?? EXPORT_DEFAULT };
    case 'contacts.clear':
      return { ...request, fields: fieldsToClear(request.fields) };
    case 'companies.list':
    case 'companies.contacts':
      return { ...request, limit: request.limit ?? LIST_DEFAULT };
    case 'issues.list':
    case 'issues.show':
      return withIssueDefaults(request);
    default:
      return request;
  }
}
