import type { StoredContact } from '../contacts/enrichment/ports';
import type { ContactFilter } from './ports';

/**
 * Whether a contact is in a filtered list. The DynamoDB store writes the
 * same rule as a FilterExpression (`updatedAt` strings compare in time order:
 * every one is written by toISOString).
 */
export function matchesFilter(contact: StoredContact, filter: ContactFilter): boolean {
  if (filter.enriched !== undefined && (contact.enriched === true) !== filter.enriched) return false;
  if (filter.updatedSince !== undefined && contact.updatedAt < filter.updatedSince) return false;
  return true;
}
