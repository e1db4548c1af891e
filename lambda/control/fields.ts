import * as z from 'zod/mini';
import { KEY_ID_PATTERN } from '../kernel/api-key';
import { COMPANY_ID_PATTERN } from '../contacts/domain/company-id';
import { CONTACT_ID_PATTERN } from '../kernel/contact-id-digest';
import { FACTORY_ID_PATTERN } from '../kernel/factory-id';
import { PERSON_KEY_PATTERN } from '../kernel/person-key';
import { ISSUE_ID_PATTERN } from '../ingest/issues/issue';
import { REPORT_ID_PATTERN } from '../ingest/issues/stored-event';

/**
 * The request fields the control room's operations share, each with the one
 * message it gives: ids, cursors, page sizes. An operation's table
 * (contact-operations.ts and its siblings) builds its requests from these.
 */

/**
 * What a request field says of itself beyond its schema, read by the
 * operation (operation.ts: its fields) for the audit line and by the
 * `control` command for its flags and usage. Without it a field's flag is
 * its name in kebab case (a list's in the singular), its placeholder
 * follows from its type, and the audit line leaves it out.
 */
export interface FieldMeta {
  /** The command-line flag, without its dashes: `factory` for factoryId. */
  flag?: string;
  /** What the usage shows as its value: `fac_id`. */
  placeholder?: string;
  /** The audit line names its value: the id of what the operation acts on (never free text, never a secret). */
  audited?: boolean;
  /** A yes-or-no field whose flag is a switch: given means yes (`--servers`), left out means the default. */
  switch?: boolean;
  /** A number that may have a fractional part (a share, 0.99): written as a decimal on the command line. */
  fraction?: boolean;
}

/** Each described field's metadata, by schema (optional fields are looked up through their inner schema). */
export const FIELD_META = z.registry<FieldMeta>();

/** The field `schema`, described by `meta`. */
export function described<S extends z.ZodMiniType>(schema: S, meta: FieldMeta): S {
  FIELD_META.add(schema, meta);
  return schema;
}

/** A string field of one shape, with the message a wrong value gets. */
const id = (name: string, pattern: RegExp, shape: string, meta: FieldMeta) =>
  described(z.string({ error: `${name} must be a string` }).check(z.regex(pattern, { error: `${name} must be ${shape}` })), meta);

export const factoryId = described(
  z.string({ error: 'factoryId must be a string like "fac_acme"' }).check(z.regex(FACTORY_ID_PATTERN, { error: 'factoryId must look like "fac_acme"' })),
  { flag: 'factory', placeholder: 'fac_id' },
);
export const contactId = id('contactId', CONTACT_ID_PATTERN, 'a contact id: ct_ + 16 hex characters', { flag: 'contact', placeholder: 'ct_id', audited: true });
export const companyId = id('companyId', COMPANY_ID_PATTERN, 'a company id: co_ + 16 hex characters', { flag: 'company', placeholder: 'co_id' });
export const keyId = id('keyId', KEY_ID_PATTERN, 'a key id: key_ + 16 hex characters', { flag: 'key', placeholder: 'key_id' });
export const issueId = id('issueId', ISSUE_ID_PATTERN, 'an issue id: iss_ + 20 hex characters (from `reports issues`)', {
  flag: 'issue',
  placeholder: 'iss_id',
  audited: true,
});
export const reportId = (name: 'eventId' | 'requestId') =>
  id(name, REPORT_ID_PATTERN, 'a lowercase UUID, as the reports list shows it', { flag: name === 'eventId' ? 'event' : 'request', placeholder: 'uuid' });

/** Where a list goes on: the string a previous page answered, opaque to the caller. */
export const cursor = z.optional(described(z.string({ error: 'cursor must be the string a previous answer returned' }), { placeholder: 'C' }));

/** An optional whole number from `min` to `max` (a spike multiple), with the one message every operation gives for it. */
export function between(name: string, min: number, max: number) {
  const error = `${name} must be a whole number from ${min} to ${max}`;
  return z.optional(z.number({ error }).check(z.int({ error }), z.minimum(min, { error }), z.maximum(max, { error })));
}

/** An optional whole number from 1 to `max` (a page size, a rate limit). */
export function upTo(name: string, max: number) {
  return between(name, 1, max);
}

/** A page size: `limit`, at most `max`. */
export const limit = (max: number) => upTo('limit', max);

/**
 * A person named by their person key (an erasure's audit line records it): how an erasure is applied again to a
 * person known only from bug reports, after a restore brought their reports back (docs/runbook.md#after-a-restore-erase-again).
 */
export const personKey = z.optional(
  id('personKey', PERSON_KEY_PATTERN, 'a person key: person_ + 32 hex characters, as an erasure answers and audits it', {
    flag: 'person-key',
    placeholder: 'person_key',
    audited: true,
  }),
);

/** An email naming a person (erasure, export): checked and normalized by the operation, as the contacts API does. */
export const email = z.optional(described(z.string({ error: 'email must be a string' }), { placeholder: 'address' }));
