import { randomUUID } from 'node:crypto';
import type { ContactStore, ContactWrite, KeyAuthorizer } from '../../lambda/contacts/domain/ports';

/**
 * The floor the service is compared with: the very DynamoDB calls a warm
 * request makes (the service's own store classes, so the same commands on
 * the same tables with the same item shapes), with nothing around them: no
 * HTTP, no Middy, no logging, no validation.
 */
export type BareShape = 'upsert' | 'get';

export interface BareTarget {
  factoryId: string;
  keyHash: string;
  contactId: string;
  /** The write the service's upsert makes for the benchmark's body, minus the per-request values. */
  write: Omit<ContactWrite, 'now' | 'creationToken'>;
}

export interface BareDeps {
  keys: KeyAuthorizer;
  contacts: ContactStore;
}

function allowed(decision: Awaited<ReturnType<KeyAuthorizer['authorize']>>): void {
  if (decision.outcome !== 'allowed') throw new Error(`bare client: key check answered ${decision.outcome}`);
}

/**
 * One request's worth of calls: upsert = key check, then the write; GET =
 * key check ∥ read (a warm key). Resolves with what the calls returned (the
 * written contact and whether it was created, or the contact read), which
 * the empty service (empty-service.ts) sends back as its answer.
 */
export function bareOperation(shape: BareShape, deps: BareDeps, target: BareTarget): () => Promise<object> {
  if (shape === 'upsert') {
    return async () => {
      allowed(await deps.keys.authorize(target.keyHash, Date.now()));
      return deps.contacts.writeContact({ ...target.write, now: new Date().toISOString(), creationToken: randomUUID() });
    };
  }
  return async () => {
    const [decision, contact] = await Promise.all([
      deps.keys.authorize(target.keyHash, Date.now()),
      deps.contacts.getContact(target.factoryId, target.contactId),
    ]);
    allowed(decision);
    if (!contact) throw new Error('bare client: the contact is missing');
    return { contact };
  };
}
