import { CONTACTS_API } from '../lambda/contacts/api/routes';
import { INGEST_API } from '../lambda/ingest/api/routes';

/**
 * Every API of the host, by name: the route tables the document describes.
 * Only the tooling joins them; each Lambda entry imports its own table alone.
 */
export const API_TABLE = { contacts: CONTACTS_API, ingest: INGEST_API } as const;
