import { randomUUID } from 'node:crypto';
import { CANARY_EMAIL, CANARY_FACTORY_ID } from '../../kernel/canary';
import { findContactById } from '../domain/find-contact';
import type { ContactStore } from '../domain/ports';
import { upsertContact } from '../domain/upsert-contact';
import { upsertBody } from '../domain/upsert-input';
import { isSelfCheckEvent, selfCheckAnswer, type SelfCheckAnswer } from '../../infrastructure/deploy/self-check';
import type { ApiHandler } from '../../infrastructure/http/pipeline';

/**
 * The contacts function's self-check, run by the pre-traffic hook on a new
 * version before it takes traffic (docs/deploying.md#the-pre-traffic-check):
 * the canary factory's contact written with the upsert every request makes
 * (UpdateItem on the contacts table) and read back by id (GetItem), with
 * the version's own code, role and table names. The write is an upsert, so
 * a fresh stack gets its canary contact from its first check: nothing is
 * seeded beforehand, and no key is needed. 200 when the contact read back is
 * the one written; 500 when it differs; 503 naming the error when a call fails.
 */
export async function checkCanaryContact(store: ContactStore, now: Date = new Date()): Promise<SelfCheckAnswer> {
  try {
    // The body a client would send, read by the API's own schema.
    const input = upsertBody.parse({ email: CANARY_EMAIL, name: 'Pre-traffic check' });
    const written = await upsertContact(store, CANARY_FACTORY_ID, input, {
      now: now.toISOString(),
      creationToken: randomUUID(),
    });
    const read = await findContactById(store, CANARY_FACTORY_ID, written.contact.id);
    if (read?.email !== CANARY_EMAIL || read.updatedAt !== written.contact.updatedAt) {
      return selfCheckAnswer(500, {
        error: `the canary contact ${written.contact.id} read back is not the one written`,
        written: written.contact.updatedAt,
        read: read?.updatedAt ?? null,
      });
    }
    return selfCheckAnswer(200, { checked: 'canary contact written and read back', factoryId: CANARY_FACTORY_ID, contactId: read.id });
  } catch (error) {
    return selfCheckAnswer(503, { error: `${error instanceof Error ? error.name : 'Error'}: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/** The contacts API's handler, answering the hook's self-check event itself and every other event as before. */
export function answeringSelfCheck(api: ApiHandler, check: () => Promise<SelfCheckAnswer>): ApiHandler {
  return (event, context) => (isSelfCheckEvent(event) ? check() : api(event, context));
}
