import { randomUUID } from 'node:crypto';
import type { ContactStore } from '../../domain/ports';
import type { UpsertInput } from '../../domain/upsert-input';
import { upsertContact } from '../../domain/upsert-contact';
import { json } from '../responses';
import type { EventWithBody, RouteHandler } from '../types';
import { callerOf } from './caller';

/**
 * POST /api/v1/contacts, once the route's steps (routes.ts) have checked the
 * body's size, parsed and validated it: 201 with `created: true` when this
 * call created the contact, 200 with `created: false` otherwise (docs/contacts-api.md#upsert-a-contact--post-apiv1contacts).
 */
export function upsertContactOperation(store: ContactStore): RouteHandler<EventWithBody<UpsertInput>> {
  return async (event, context) => {
    const result = await upsertContact(store, callerOf(context).factoryId, event.body, {
      now: new Date().toISOString(),
      creationToken: randomUUID(),
      log: context.calls,
    });
    return json(result.created ? 201 : 200, result);
  };
}
