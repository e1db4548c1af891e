import type * as z from 'zod/mini';
import { companyId } from './company-id';
import { contactView, TEXT_FIELDS, type TextField } from './contact';
import type { upsertResultSchema } from './contact-schema';
import { contactId } from './contact-id';
import type { ContactStore } from './ports';
import type { UpsertInput } from './upsert-input';

/** The upsert's answer (its schema: contact-schema.ts). */
export type UpsertResult = z.output<typeof upsertResultSchema>;

/**
 * Upserts a contact by email (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). The contact write is one atomic store
 * call; the company is written only when `companyDomain` is sent and the
 * contact ends up linked to it, so a contact whose link was already set to
 * another company never creates one. Writing the company when the link was
 * already ours is what makes a retry after a failure converge.
 */
export async function upsertContact(
  store: ContactStore,
  factoryId: string,
  input: UpsertInput,
  request: { now: string; creationToken: string },
): Promise<UpsertResult> {
  const linkTo = input.companyDomain === undefined ? undefined : companyId(factoryId, input.companyDomain);
  const fields: Partial<Record<TextField, string>> = {};
  for (const field of TEXT_FIELDS) {
    const value = input[field];
    if (value !== undefined) fields[field] = value;
  }
  const { contact, created } = await store.writeContact({
    factoryId,
    id: contactId(factoryId, input.email),
    email: input.email,
    fields,
    source: input.source,
    companyId: linkTo,
    now: request.now,
    creationToken: request.creationToken,
  });
  if (input.companyDomain !== undefined && linkTo !== undefined && contact.companyId === linkTo) {
    await store.createCompanyIfMissing({
      factoryId,
      id: linkTo,
      domain: input.companyDomain,
      name: input.company ?? input.companyDomain,
      createdAt: request.now,
    });
  }
  return { contact: contactView(contact), created };
}
