import type * as z from 'zod/mini';
import type { contactSchema, enrichmentSchema } from './contact-schema';

/** The enrichment object (docs/control-room.md#enrichment) (its schema: contact-schema.ts). */
export type Enrichment = z.output<typeof enrichmentSchema>;

/** A contact as stored and as returned by the API (docs/contacts-api.md#the-contact; its schema: contact-schema.ts). */
export type Contact = z.output<typeof contactSchema>;

/** Caller-writable free-text fields and their order in responses. */
export const TEXT_FIELDS = ['name', 'title', 'phone', 'page'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/** The fields an enrichment pass may fill (only when empty). */
export const ENRICHABLE_FIELDS = ['name', 'title', 'phone', 'location'] as const;
export type EnrichableField = (typeof ENRICHABLE_FIELDS)[number];

const fieldRank = (field: string) => {
  const rank = (ENRICHABLE_FIELDS as readonly string[]).indexOf(field);
  return rank === -1 ? ENRICHABLE_FIELDS.length : rank;
};

const RESPONSE_ORDER = [
  'id',
  'factoryId',
  'companyId',
  'email',
  'name',
  'title',
  'phone',
  'page',
  'source',
  'createdAt',
  'updatedAt',
  'location',
  'enriched',
  'enrichment',
] as const satisfies readonly (keyof Contact)[];

/**
 * The public view of a contact: known fields only, in a stable order, absent
 * (not null) when unset, so `enriched`/`enrichment` are missing on a contact
 * never enriched (docs/control-room.md#enrichment).
 */
export function contactView(contact: Contact): Contact {
  const view: Record<string, unknown> = {};
  for (const field of RESPONSE_ORDER) {
    const value = contact[field];
    if (value !== undefined && value !== null) view[field] = value;
  }
  // DynamoDB keeps no key order in maps: give the enrichment object the spec's, and its fields a fixed one.
  if (contact.enrichment) {
    const { provider, at, fields } = contact.enrichment;
    const ordered = Object.keys(fields).sort((a, b) => fieldRank(a) - fieldRank(b) || a.localeCompare(b));
    view.enrichment = { provider, at, fields: Object.fromEntries(ordered.map((field) => [field, fields[field]])) };
  }
  return view as unknown as Contact;
}
