import { runPass, type EnrichmentContext, type PassResult } from './run-pass';

export interface BulkSummary {
  /** Contacts looked at. */
  seen: number;
  /** Already enriched (or billed) before: passed over, not billed. */
  skipped: number;
  /** Passes that filled something. */
  enriched: number;
  /** Passes that found values for fields all already set. */
  complete: number;
  /** Passes that found nothing (free). */
  misses: number;
  /** Billed passes: enriched + complete. */
  billed: number;
}

export interface BulkResult {
  summary: BulkSummary;
  /** Pass it back to continue; absent when the factory is done. */
  cursor?: string;
  done: boolean;
}

export interface BulkOptions {
  cursor?: string;
  /** Contacts per page read from DynamoDB. */
  pageSize?: number;
  /** Passes running at once within a page. */
  concurrency?: number;
  /** Asked before each new page; false ends this invocation with a cursor. */
  keepGoing?: () => boolean;
  /** Called after each page (progress reporting). */
  onPage?: (summary: BulkSummary) => void;
}

export const emptySummary = (): BulkSummary => ({ seen: 0, skipped: 0, enriched: 0, complete: 0, misses: 0, billed: 0 });

export function addResult(summary: BulkSummary, result: PassResult): void {
  if (result.outcome === 'skipped') summary.skipped += 1;
  if (result.outcome === 'enriched') summary.enriched += 1;
  if (result.outcome === 'complete') summary.complete += 1;
  if (result.outcome === 'miss') summary.misses += 1;
  if (result.billed) summary.billed += 1;
}

/** Runs `work` over `items` with at most `limit` at a time; results in input order. */
export async function mapWithConcurrency<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next;
      next += 1;
      results[index] = await work(items[index] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * A bulk run over a factory: pages through its contacts in id order, passes
 * over those already enriched or billed, and runs a pass on each other one,
 * `concurrency` at a time. Ends with the factory done, or (when `keepGoing`
 * says so) with a cursor the next invocation continues from. A page is
 * finished before the cursor moves past it; re-running a page after a crash
 * is harmless, because passes done already are skipped and not billed again.
 */
export async function runBulk(context: EnrichmentContext, factoryId: string, options: BulkOptions = {}): Promise<BulkResult> {
  const summary = emptySummary();
  let cursor = options.cursor;
  for (;;) {
    const page = await context.store.pageOfContacts(factoryId, cursor, options.pageSize ?? 100);
    summary.seen += page.scanned;
    summary.skipped += page.scanned - page.contacts.length;
    const results = await mapWithConcurrency(page.contacts, options.concurrency ?? 8, (contact) =>
      runPass(context, factoryId, contact.id, { bulk: true, contact }),
    );
    for (const result of results) addResult(summary, result);
    options.onPage?.({ ...summary });
    cursor = page.next;
    if (cursor === undefined) return { summary, done: true };
    if (options.keepGoing && !options.keepGoing()) return { summary, cursor, done: false };
  }
}
