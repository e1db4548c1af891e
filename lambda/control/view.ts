import { CLEARABLE_FIELDS, type ClearedFields } from '../contacts/domain/cleared';
import { contactView, type Contact } from '../contacts/domain/contact';
import type { StoredContact } from '../contacts/enrichment/ports';
import type { Company } from './ports';

/** A contact as the control room shows it: the public view, then what only the control room sees. */
export type ControlContact = Contact &
  Pick<StoredContact, 'enrichmentCheckedAt' | 'cleared'> & {
    /** A list's: the linked company's domain, which reads better than its id. */ companyDomain?: string;
  };

/** `cleared` in a fixed order (DynamoDB keeps none in maps): fields as CLEARABLE_FIELDS, each value, at, by, reason. */
function orderedCleared(cleared: ClearedFields): ClearedFields {
  const ordered: ClearedFields = {};
  for (const field of CLEARABLE_FIELDS) {
    const record = cleared[field];
    if (record) ordered[field] = { value: record.value, at: record.at, by: record.by, ...(record.reason ? { reason: record.reason } : {}) };
  }
  return ordered;
}

/**
 * The public API's view of the contact (docs/contacts-api.md#the-contact, same fields and order),
 * followed by `enrichmentCheckedAt` (the last billed pass) and `cleared`
 * (what the control room cleared) when the contact has them.
 */
export function controlView(contact: StoredContact): ControlContact {
  const view: ControlContact = contactView(contact);
  if (contact.enrichmentCheckedAt !== undefined) view.enrichmentCheckedAt = contact.enrichmentCheckedAt;
  if (contact.cleared !== undefined && Object.keys(contact.cleared).length > 0) view.cleared = orderedCleared(contact.cleared);
  return view;
}

/** A company as the control room shows it: id, domain, name, createdAt. */
export function companyView(company: Company): Company {
  return { id: company.id, domain: company.domain, name: company.name, createdAt: company.createdAt };
}
