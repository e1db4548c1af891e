import { SERVICE_NAME } from '../../infrastructure/observability/names';
import { BODY_LIMIT_BYTES } from '../../kernel/limits';
import type { ContactStore, KeyAuthorizer } from '../domain/ports';
import { upsertBody } from '../domain/upsert-input';
import { bodyLimit } from '../../infrastructure/http/steps/body-limit';
import { validBody } from '../../infrastructure/http/steps/validate-body';
import { createHandler, NO_BODY, route, type ApiHandler, type ApiSpec } from '../../infrastructure/http/pipeline';
import { API_PREFIXES } from '../../infrastructure/http/prefixes';
import { authenticate } from './authenticate';
import { newContactsSlot, type ContactsSlot } from './contacts-slot';
import { findContactOperation, getContactOperation } from './get-contact';
import { noCorsHeaders } from './no-cors-headers';
import { rateLimitHeaders } from './rate-limit-headers';
import { refuseOrigin } from './refuse-origin';
import { answerWhenConfirmed } from './speculative-read';
import { upsertContactOperation } from './upsert-contact';
import { upsertCounts } from './upsert-counts';

/** What the contacts API needs: its stores, and a clock the tests can move. */
export interface ContactsDependencies {
  contacts: ContactStore;
  keys: KeyAuthorizer;
  now?: () => number;
}

/**
 * The contacts API (docs/contacts-api.md): server-to-server, secret keys only.
 *
 * Error precedence: when a request is wrong in several ways, the first of
 * these answers it.
 * 1. 403: an Origin header (refuseOrigin; no key is checked, nothing counted)
 * 2. 401: a missing, malformed, unknown or revoked key (authenticate)
 * 3. 429: the key over its per-minute limit (authenticate)
 * 4. 404: no such path; 405: the path under another method (the router)
 * 5. 413: the body over 512 KiB (POST)
 * 6. 400: the body not JSON (POST); `email` missing or repeated (GET by email)
 * 7. 422: the body's content invalid (POST)
 * 8. 404: no contact with that id or email in the caller's factory (GET)
 * 9. 503: storage unavailable (every step that calls DynamoDB)
 */
export const CONTACTS_API: ApiSpec<ContactsDependencies, ContactsSlot> = {
  name: 'contacts',
  service: SERVICE_NAME,
  prefix: API_PREFIXES.contacts,
  home: 'The contacts API lives under /api/v1/contacts.',
  slot: newContactsSlot,
  guards: (deps) => [refuseOrigin(), authenticate(deps.keys, deps.now)],
  answers: () => [noCorsHeaders(), rateLimitHeaders()],
  countsOf: upsertCounts,
  unavailable: 'The contacts store is temporarily unavailable: retry the same request (retrying is safe and cannot create a duplicate).',
  wrapRoutes: answerWhenConfirmed,
  routes: [
    route({
      method: 'POST',
      path: '/api/v1/contacts',
      checks: [bodyLimit(BODY_LIMIT_BYTES)],
      body: validBody(upsertBody, '{"email": "ada@example.com"}'),
      operation: (deps) => upsertContactOperation(deps.contacts),
    }),
    route({ method: 'GET', path: '/api/v1/contacts', body: NO_BODY, operation: (deps) => findContactOperation(deps.contacts) }),
    route({ method: 'GET', path: '/api/v1/contacts/{id}', body: NO_BODY, operation: (deps) => getContactOperation(deps.contacts) }),
  ],
};

/** The contacts API's handler on the dependencies given: the Lambda entry's (contacts-entry.ts), the tests' and the tools'. */
export function createContactsHandler(deps: ContactsDependencies): ApiHandler {
  return createHandler(CONTACTS_API, deps);
}
