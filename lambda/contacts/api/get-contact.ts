import { clip } from '../../kernel/clip';
import { findContactByEmail, findContactById } from '../domain/find-contact';
import type { ContactStore } from '../domain/ports';
import type { ContactAnswer } from '../../infrastructure/http/answers';
import { apiError, json } from '../../infrastructure/http/responses';
import type { Operation } from '../../infrastructure/http/pipeline';
import { callerOf } from '../../infrastructure/http/request-state';

/** A caller's value in a message, clipped: errors never echo a huge input. */
const quote = (value: string) => JSON.stringify(clip(value, 300));

/** Path segments arrive URL-encoded; a bad escape cannot name a contact. */
function decodeSegment(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** GET /api/v1/contacts/{id}: 404 also for another factory's id (docs/contacts-api.md#read-a-contact--get-apiv1contactsid). */
export function getContactOperation(store: ContactStore): Operation {
  return async ({ event, state }) => {
    const raw = event.pathParameters?.id ?? '';
    const id = decodeSegment(raw);
    const contact = id === undefined ? undefined : await findContactById(store, callerOf(state).factoryId, id);
    if (!contact) throw apiError(404, `No contact with id ${quote(id ?? raw)} in your factory.`);
    return json(200, { contact } satisfies ContactAnswer);
  };
}

/**
 * GET /api/v1/contacts?email=: 400 without the parameter (docs/contacts-api.md#find-a-contact-by-email--get-apiv1contactsemail). A `+`
 * sent unencoded arrives as a space; addresses never hold spaces, so it is
 * read back as `+`.
 */
export function findContactOperation(store: ContactStore): Operation {
  return async ({ event, state }) => {
    const values = event.multiValueQueryStringParameters?.email ?? [];
    const single = event.queryStringParameters?.email;
    const all = values.length > 0 ? values : single === undefined ? [] : [single];
    if (all.length > 1) throw apiError(400, 'Send the email query parameter once.');
    const email = all[0]?.trim().replace(/ /g, '+');
    if (!email) {
      throw apiError(400, 'Missing query parameter "email": use GET /api/v1/contacts?email=<URL-encoded address>, or GET /api/v1/contacts/{id}.');
    }
    const contact = await findContactByEmail(store, callerOf(state).factoryId, email);
    if (!contact) throw apiError(404, `No contact with email ${quote(email)} in your factory.`);
    return json(200, { contact } satisfies ContactAnswer);
  };
}
