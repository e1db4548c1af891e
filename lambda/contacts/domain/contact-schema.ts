import * as z from 'zod/mini';
import { SOURCES } from './source';
import { CONTACT_ID_PATTERN } from '../../kernel/contact-id-digest';
import { COMPANY_ID_PATTERN } from './company-id';

/**
 * The answers' shapes (docs/contacts-api.md#the-contact, docs/contacts-api.md#upsert-a-contact--post-apiv1contacts) as zod schemas: the one
 * definition the types of contact.ts and upsert-contact.ts derive from, and
 * the OpenAPI document and the typed client are generated from. The service
 * never parses with them (it builds its answers), so runtime code imports
 * this module for types only and it stays out of the Lambda bundle.
 */

const timestamp = (what: string) => z.iso.datetime().check(z.describe(`${what}: ISO 8601, UTC.`));

/**
 * Where a contact came from: one schema, which the answers' `source` and the
 * upsert request's (openapi/api-docs.ts) both refer to, so a client
 * generated from the document has one type for it.
 */
export const sourceSchema = z.enum(SOURCES).check(z.describe('Where the contact came from.'));

/** The enrichment object (docs/control-room.md#enrichment). */
export const enrichmentSchema = z
  .object({
    provider: z.string().check(z.describe("The platform's own name, one constant: never a data source's.")),
    at: timestamp('When the last enrichment pass ran'),
    fields: z.record(z.string(), z.string()).check(z.describe('Everything the last pass found, applied or not (a field the caller had set keeps its value).')),
  })
  .check(z.describe('What enrichment found. Absent on a contact never enriched.'));

/** A contact as returned (docs/contacts-api.md#the-contact). Fields without a value are absent, never null. */
export const contactSchema = z
  .object({
    id: z.string().check(z.regex(CONTACT_ID_PATTERN), z.describe('`ct_` + the first 16 hex characters of sha256("<factoryId>:<email>").')),
    factoryId: z.string().check(z.regex(/^fac_/), z.describe("The owning factory: the key's, never the request's.")),
    companyId: z.optional(z.string().check(z.regex(COMPANY_ID_PATTERN), z.describe('The linked company; present once linked, never reassigned.'))),
    email: z.string().check(z.describe('The identity, in its stored form (trimmed, lowercased).')),
    name: z.optional(z.string()),
    title: z.optional(z.string()),
    phone: z.optional(z.string()),
    page: z.optional(z.string()),
    source: sourceSchema,
    createdAt: timestamp('Set once, when the contact was created'),
    updatedAt: timestamp('The last write'),
    location: z.optional(z.string().check(z.describe('Only ever filled by enrichment.'))),
    enriched: z.optional(z.boolean().check(z.describe('true once an enrichment pass filled something; absent otherwise.'))),
    enrichment: z.optional(enrichmentSchema),
  })
  .check(z.describe('A contact (docs/contacts-api.md#the-contact). Fields without a value are absent, never null.'));

/** The upsert's answer (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts): `created` mirrors the status, 201 or 200. */
export const upsertResultSchema = z.object({
  contact: contactSchema,
  created: z.boolean().check(z.describe('true (status 201) when this call created the contact, false (200) when it existed.')),
});
