import type { ApiHandler } from '../lambda/api/pipeline';
import { API_PREFIXES } from '../lambda/api/prefixes';
import { dispatchByPrefix } from './dispatch';

/** Both APIs of the host as one handler, by the APIs' prefixes: `/ingest/v1/…` and `/ingest/sentry/…` to the ingest API, the rest to the contacts API. */
export function hostHandler(handlers: { contacts: ApiHandler; ingest: ApiHandler }): ApiHandler {
  return dispatchByPrefix(
    [
      { prefix: API_PREFIXES.ingest, handler: handlers.ingest },
      { prefix: API_PREFIXES.sentry, handler: handlers.ingest },
    ],
    handlers.contacts,
  );
}

/** The Lambda entry points' handlers, from the TypeScript sources, configured by the environment as on AWS. */
export async function sourceHandlers(): Promise<{ contacts: ApiHandler; ingest: ApiHandler }> {
  const [contacts, ingest] = await Promise.all([import('../lambda/api/contacts-entry'), import('../lambda/api/ingest-entry')]);
  return { contacts: contacts.handler, ingest: ingest.handler };
}
