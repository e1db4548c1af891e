import { setTimeout as sleep } from 'node:timers/promises';
import type { EnrichableField } from '../domain/contact';
import { StorageUnavailableError } from '../../kernel/errors';
import { planPass, type PassPlan } from './plan-pass';
import type { EnrichmentStore, StoredContact } from './ports';
import type { EnrichmentSource, Findings, FoundFields } from './sources/source';

export interface EnrichmentContext {
  store: EnrichmentStore;
  /** Asked in order; per field the first value found wins. */
  sources: EnrichmentSource[];
  /** The platform's own name: `enrichment.provider` (docs/control-room.md#enrichment). */
  provider: string;
  now?: () => Date;
}

export type PassOutcome =
  /** Filled at least one empty field; billed. */
  | 'enriched'
  /** A data source found values, but every such field was already set; billed, not enriched. */
  | 'complete'
  /** Found nothing new; free. */
  | 'miss'
  /** Bulk only: already enriched or billed before; free, nothing written. */
  | 'skipped'
  | 'not-found'
  /** This passId was applied to this contact before (a retried invocation); nothing written now. */
  | 'duplicate';

export interface PassResult {
  contactId: string;
  outcome: PassOutcome;
  billed: boolean;
  /** Everything the sources found, but values the control room cleared. */
  found: FoundFields;
  /** Fields whose found value the control room had cleared from them: not filled, billed or recorded. */
  ignored?: EnrichableField[];
}

const ATTEMPTS = 6;

/** Asks every source (in parallel) and merges in source order, first value per field. */
export async function lookup(sources: EnrichmentSource[], email: string): Promise<Findings> {
  const answers = await Promise.all(sources.map((source) => source.lookup({ email })));
  const found: FoundFields = {};
  const fromData = new Set<EnrichableField>();
  answers.forEach((answer, index) => {
    const entries = Object.entries(answer).filter(([, value]) => value) as [EnrichableField, string][];
    for (const [field, value] of entries) {
      found[field] ??= value;
      if (!sources[index]?.derived) fromData.add(field);
    }
  });
  return { found, lookedUp: fromData.size > 0, fromData: [...fromData] };
}

const isDone = (contact: StoredContact) => contact.enriched === true || contact.enrichmentCheckedAt !== undefined;

/** Waits a little, more each attempt, with jitter: lets a competing transaction finish. */
const backoff = (attempt: number) => sleep(Math.random() * 25 * 2 ** attempt);

/**
 * One enrichment pass over one contact. `bulk` passes skip a contact already
 * enriched or billed (also when another run got there first, between our read
 * and our write); a refresh (not bulk) always runs. The write is guarded by
 * the state the plan was made from: when a caller's upsert lands in between,
 * the pass plans again from the new state, so it never overwrites a value.
 *
 * `passId` (from the control room) makes a retried invocation safe: a pass
 * with that id applied to this contact before is not applied or billed again.
 */
export async function runPass(
  context: EnrichmentContext,
  factoryId: string,
  contactId: string,
  options: { bulk: boolean; contact?: StoredContact; passId?: string },
): Promise<PassResult> {
  let contact = options.contact ?? (await context.store.getContact(factoryId, contactId));
  const result = (outcome: PassOutcome, billed = false, plan?: PassPlan): PassResult => ({
    contactId,
    outcome,
    billed,
    found: plan?.found ?? {},
    ...(plan && plan.ignored.length > 0 ? { ignored: plan.ignored } : {}),
  });
  if (!contact) return result('not-found');
  if (options.bulk && isDone(contact)) return result('skipped');

  const findings = await lookup(context.sources, contact.email);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const at = (context.now?.() ?? new Date()).toISOString();
    const plan = planPass(contact, findings, context.provider, at);
    if (plan.kind === 'miss' && !plan.enrichment) return result('miss', false, plan);
    const applied = await context.store.applyPass({
      factoryId,
      contact,
      plan,
      bulk: options.bulk,
      at,
      period: at.slice(0, 7),
      passId: options.passId,
    });
    if (applied.outcome === 'applied') {
      return result(plan.kind === 'fill' ? 'enriched' : plan.kind, plan.billed, plan);
    }
    if (applied.outcome === 'duplicate') return result('duplicate', false, plan);
    if (applied.reason === 'busy') {
      await backoff(attempt);
      continue;
    }
    if (!applied.current) return result('not-found');
    contact = applied.current;
    if (options.bulk && isDone(contact)) return result('skipped');
  }
  throw new StorageUnavailableError(
    'TransactWriteItems (enrichment pass)',
    new Error(`contact ${contactId} kept changing or stayed busy during ${ATTEMPTS} attempts`),
  );
}
