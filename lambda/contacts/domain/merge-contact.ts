import type { Contact } from './contact';
import type { ContactWrite } from './ports';

/**
 * The merge rule of an upsert (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts), as a pure function: what a contact
 * becomes when `write` lands on `stored` (undefined: no contact yet).
 * - sent fields overwrite; omitted ones keep their stored value;
 * - `createdAt` and the company link are set once, never overwritten;
 * - `source` is the one sent, else the stored one, else `api`;
 * - `updatedAt` moves on every write; what enrichment wrote is left alone.
 * The DynamoDB store applies the same rule as one UpdateItem expression
 * (lambda/infrastructure/store/contacts/dynamo-contact-store.ts); a test holds the two to agreement.
 */
export function mergeContact(stored: Contact | undefined, write: ContactWrite): Contact {
  const merged: Contact = {
    ...stored,
    ...write.fields,
    id: write.id,
    factoryId: write.factoryId,
    email: write.email,
    source: write.source ?? stored?.source ?? 'api',
    createdAt: stored?.createdAt ?? write.now,
    updatedAt: write.now,
  };
  const companyId = stored?.companyId ?? write.companyId;
  if (companyId !== undefined) merged.companyId = companyId;
  return merged;
}
