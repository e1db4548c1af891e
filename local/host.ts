import type { ApiHandler } from '../lambda/api/app';
import { API_TABLE } from '../lambda/api/routes';
import { dispatchByPrefix } from './dispatch';

/** Both APIs of the host as one handler, by the route table's prefixes: `/ingest/v1/…` to the ingest API, the rest to the contacts API. */
export function hostHandler(handlers: { contacts: ApiHandler; ingest: ApiHandler }): ApiHandler {
  return dispatchByPrefix([{ prefix: API_TABLE.ingest.prefix, handler: handlers.ingest }], handlers.contacts);
}

/** The Lambda entry points' handlers, from the TypeScript sources, configured by the environment as on AWS. */
export async function sourceHandlers(): Promise<{ contacts: ApiHandler; ingest: ApiHandler }> {
  const [contacts, ingest] = await Promise.all([import('../lambda/api/handler'), import('../lambda/api/ingest-handler')]);
  return { contacts: contacts.handler, ingest: ingest.handler };
}
