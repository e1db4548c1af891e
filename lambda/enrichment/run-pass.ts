import { randomUUID } from 'node:crypto';
import { StorageUnavailableError } from '../store/errors';
import { planPass } from './plan-pass';
import type { EnrichmentStore, StoredContact } from './ports';
import type { EnrichmentSource, FoundFields } from './sources/source';

export interface EnrichmentContext {
  store: EnrichmentStore;
  /** Asked in order; per field the first value found wins. */
  sources: EnrichmentSource[];
  /** The platform's own name: `enrichment.provider` (spec 2.2). */
  provider: string;
  now?: () => Date;
}

export type PassOutcome =
  /** Filled at least one empty field; billed. */
  | 'enriched'
  /** Found values, but every such field was already set; billed, not enriched. */
  | 'complete'
  /** Found nothing; free, nothing written. */
  | 'miss'
  /** Bulk only: already enriched or billed before; free, nothing written. */
  | 'skipped'
  | 'not-found'
  /** This pass token was applied before (a retried invocation); nothing written now. */
  | 'duplicate';

export interface PassResult {
  contactId: string;
  outcome: PassOutcome;
  billed: boolean;
  /** Everything the sources found (empty for a miss). */
  found: FoundFields;
}

const ATTEMPTS = 4;

/** Asks every source (in parallel) and merges in source order, first value per field. */
export async function lookup(sources: EnrichmentSource[], email: string): Promise<FoundFields> {
  const answers = await Promise.all(sources.map((source) => source.lookup({ email })));
  const found: FoundFields = {};
  for (const answer of answers) {
    for (const [field, value] of Object.entries(answer) as [keyof FoundFields, string][]) {
      if (found[field] === undefined && value) found[field] = value;
    }
  }
  return found;
}

const isDone = (contact: StoredContact) => contact.enriched === true || contact.enrichmentCheckedAt !== undefined;

/**
 * One enrichment pass over one contact. `bulk` passes skip a contact already
 * enriched or billed (also when another run got there first, between our read
 * and our write); a refresh (not bulk) always runs. The write is guarded by
 * the state the plan was made from: when a caller's upsert lands in between,
 * the pass plans again from the new state, so it never overwrites a value.
 *
 * `token` identifies the pass for idempotency: a retried invocation with the
 * same token (within DynamoDB's ten-minute window) is not applied or billed twice.
 */
export async function runPass(
  context: EnrichmentContext,
  factoryId: string,
  contactId: string,
  options: { bulk: boolean; contact?: StoredContact; token?: string },
): Promise<PassResult> {
  let contact = options.contact ?? (await context.store.getContact(factoryId, contactId));
  const result = (outcome: PassOutcome, billed = false, found: FoundFields = {}): PassResult => ({
    contactId,
    outcome,
    billed,
    found,
  });
  if (!contact) return result('not-found');
  if (options.bulk && isDone(contact)) return result('skipped');

  const found = await lookup(context.sources, contact.email);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const at = (context.now?.() ?? new Date()).toISOString();
    const plan = planPass(contact, found, context.provider, at);
    if (plan.kind === 'miss') return result('miss');
    const applied = await context.store.applyPass({
      factoryId,
      contact,
      plan,
      bulk: options.bulk,
      at,
      period: at.slice(0, 7),
      // A re-planned write is a different write: it needs a token of its own.
      token: attempt === 0 && options.token ? options.token : randomUUID(),
    });
    if (applied.outcome === 'applied') return result(plan.kind === 'fill' ? 'enriched' : 'complete', true, found);
    if (applied.outcome === 'duplicate') return result('duplicate', false, found);
    if (!applied.current) return result('not-found');
    contact = applied.current;
    if (options.bulk && isDone(contact)) return result('skipped');
  }
  throw new StorageUnavailableError(
    'TransactWriteItems (enrichment pass)',
    new Error(`contact ${contactId} kept changing during ${ATTEMPTS} attempts`),
  );
}
