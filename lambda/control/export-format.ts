import type { ControlContact } from './view';

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The CSV columns, in order: the contact's fields, then enrichment and the control room's own, objects as JSON text. */
export const CSV_COLUMNS = [
  'id',
  'factoryId',
  'email',
  'name',
  'title',
  'phone',
  'page',
  'location',
  'source',
  'companyId',
  'createdAt',
  'updatedAt',
  'enriched',
  'enrichmentProvider',
  'enrichmentAt',
  'enrichmentFields',
  'enrichmentCheckedAt',
  'cleared',
] as const;

/**
 * Characters that make a spreadsheet read a cell as a formula (or, for tab
 * and carriage return, move to another cell first): `=`, `+`, `-`, `@`.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line
 * break, quotes doubled. A cell that a spreadsheet would run as a formula
 * (`=HYPERLINK(…)`, `+1 555…`, `@SUM(…)`) gets a leading `'`, which
 * spreadsheets read as "this is text": CSV exports are opened by people, and
 * names and titles come from callers and vendors. Exact values are in the
 * JSON Lines export.
 */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The header line, CRLF-terminated as RFC 4180 asks. */
export const csvHeader = (): string => `${CSV_COLUMNS.join(',')}\r\n`;

function csvValues(contact: ControlContact): Record<(typeof CSV_COLUMNS)[number], string | undefined> {
  return {
    id: contact.id,
    factoryId: contact.factoryId,
    email: contact.email,
    name: contact.name,
    title: contact.title,
    phone: contact.phone,
    page: contact.page,
    location: contact.location,
    source: contact.source,
    companyId: contact.companyId,
    createdAt: contact.createdAt,
    updatedAt: contact.updatedAt,
    enriched: contact.enriched === undefined ? undefined : String(contact.enriched),
    enrichmentProvider: contact.enrichment?.provider,
    enrichmentAt: contact.enrichment?.at,
    enrichmentFields: contact.enrichment && JSON.stringify(contact.enrichment.fields),
    enrichmentCheckedAt: contact.enrichmentCheckedAt,
    cleared: contact.cleared && JSON.stringify(contact.cleared),
  };
}

/** One contact as a CSV line (absent values are empty cells). */
export function csvRow(contact: ControlContact): string {
  const values = csvValues(contact);
  return `${CSV_COLUMNS.map((column) => csvCell(values[column] ?? '')).join(',')}\r\n`;
}

/** One contact as a JSON Lines line: exactly what `contacts list` shows. */
export const jsonlRow = (contact: ControlContact): string => `${JSON.stringify(contact)}\n`;

export const exportRow = (format: ExportFormat, contact: ControlContact): string => (format === 'csv' ? csvRow(contact) : jsonlRow(contact));
