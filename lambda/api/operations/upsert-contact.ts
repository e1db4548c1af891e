import middy from '@middy/core';
import { randomUUID } from 'node:crypto';
import type { ContactStore } from '../../domain/ports';
import { BODY_LIMIT_BYTES } from '../../domain/limits';
import { upsertBody, type UpsertInput } from '../../domain/upsert-input';
import { upsertContact } from '../../domain/upsert-contact';
import { bodyLimit } from '../middleware/body-limit';
import { jsonBody } from '../middleware/json-body';
import { validateBody } from '../middleware/validate-body';
import { json } from '../responses';
import { callerOf } from './caller';
import type { ApiContext, ApiResult, EventWithBody, RouteHandler } from '../types';

/**
 * POST /api/v1/contacts: body size (413) → JSON (400) → validation (422) →
 * upsert. 201 with `created: true` when this call created the contact,
 * 200 with `created: false` otherwise (spec 4.1).
 */
export function upsertContactRoute(store: ContactStore): RouteHandler {
  const route = middy<EventWithBody<UpsertInput>, ApiResult, Error, ApiContext>({ timeoutEarlyInMillis: 0 })
    .use(bodyLimit(BODY_LIMIT_BYTES))
    .use(jsonBody())
    .use(validateBody(upsertBody))
    .handler(async (event, context) => {
      const result = await upsertContact(store, callerOf(context).factoryId, event.body, {
        now: new Date().toISOString(),
        creationToken: randomUUID(),
      });
      return json(result.created ? 201 : 200, result);
    });
  // The middlewares above turn the raw event into EventWithBody<UpsertInput>.
  return route as unknown as RouteHandler;
}
