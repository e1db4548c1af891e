import type { ClearableField } from '../contacts/domain/cleared';
import { StorageUnavailableError } from '../kernel/errors';
import type { StoredContact } from '../contacts/enrichment/ports';
import { clearTargets, clearWrites, planClear, type ClearRequest } from './plan-clear';
import type { ControlStore } from './ports';

export type ClearResult =
  | { outcome: 'not-found' }
  | {
      outcome: 'done';
      /** The contact after the clear. */
      contact: StoredContact;
      cleared: ClearableField[];
      alreadyEmpty: ClearableField[];
      /** Written by a caller while the clear ran: kept. */
      changed: ClearableField[];
    };

const ATTEMPTS = 6;

/**
 * Clears fields of one contact (docs/control-room.md#clearing-a-field: clearing is the control room's). One
 * conditional UpdateItem removes the values the clear read, records them
 * under `cleared`, and moves `updatedAt`; when the contact changed in
 * between (an upsert, an enrichment pass, another clear), the clear plans
 * again from the item the failed condition returned. It never removes a
 * value it did not read, so a caller's concurrent write is never lost.
 */
export async function runClear(store: ControlStore, factoryId: string, contactId: string, request: ClearRequest): Promise<ClearResult> {
  let contact = await store.getContact(factoryId, contactId);
  if (!contact) return { outcome: 'not-found' };
  const targets = clearTargets(contact, request.fields);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const plan = planClear(contact, request, targets);
    const done = (after: StoredContact) => ({
      outcome: 'done' as const,
      contact: after,
      cleared: Object.keys(plan.remove) as ClearableField[],
      alreadyEmpty: plan.alreadyEmpty,
      changed: plan.changed,
    });
    if (!clearWrites(plan)) return done(contact);
    const applied = await store.applyClear({ factoryId, contactId, plan });
    if (applied.outcome === 'applied') return done(applied.contact);
    if (!applied.current) return { outcome: 'not-found' };
    contact = applied.current;
  }
  throw new StorageUnavailableError('UpdateItem (clear)', new Error(`contact ${contactId} kept changing during ${ATTEMPTS} attempts`));
}
