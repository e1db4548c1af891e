/**
 * Clearing (docs/control-room.md#clearing-a-field): which fields the
 * control room may clear, and what a contact keeps about each clear.
 */

/** The contact's attributes the control room may clear; `companyId` is the company link. */
export const CLEARABLE_FIELDS = ['name', 'title', 'phone', 'page', 'location', 'companyId'] as const;
export type ClearableField = (typeof CLEARABLE_FIELDS)[number];

/** How a person names the company link: `company` or the attribute itself. */
export function clearableField(name: string): ClearableField | undefined {
  if (name === 'company') return 'companyId';
  return (CLEARABLE_FIELDS as readonly string[]).includes(name) ? (name as ClearableField) : undefined;
}

/**
 * What a contact keeps about the last clear of one field: the value removed,
 * when, by whom (the caller's IAM principal), and why when the operator said.
 * Enrichment never fills the field with `value` again; a caller's write does.
 */
export interface ClearedRecord {
  value: string;
  at: string;
  by: string;
  reason?: string;
}

export type ClearedFields = Partial<Record<ClearableField, ClearedRecord>>;

/** True when `value` is the one the control room cleared from `field`: enrichment must not bring it back. */
export function wasCleared(cleared: ClearedFields | undefined, field: ClearableField, value: string): boolean {
  return cleared?.[field]?.value === value;
}
