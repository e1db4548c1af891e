/** Where a contact came from (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts). `api` is the default on creation. */
export const SOURCES = ['api', 'external_crm', 'ads', 'manual'] as const;
export type Source = (typeof SOURCES)[number];
