import { randomUUID } from 'node:crypto';
import type { ContactStore } from '../domain/ports';
import type { UpsertInput } from '../domain/upsert-input';
import { upsertContact } from '../domain/upsert-contact';
import { json } from '../../infrastructure/http/responses';
import type { Operation } from '../../infrastructure/http/pipeline';
import { callerOf } from '../../infrastructure/http/request-state';

/**
 * POST /api/v1/contacts, once the route (routes.ts) has checked the body's
 * size, parsed and validated it: 201 with `created: true` when this
 * call created the contact, 200 with `created: false` otherwise (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts).
 */
export function upsertContactOperation(store: ContactStore): Operation<UpsertInput> {
  return async ({ body, state }) => {
    const result = await upsertContact(store, callerOf(state).factoryId, body, {
      now: new Date().toISOString(),
      creationToken: randomUUID(),
    });
    return json(result.created ? 201 : 200, result);
  };
}
