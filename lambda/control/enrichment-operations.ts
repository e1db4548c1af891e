import * as z from 'zod/mini';
import { bulkProgress } from '../contacts/enrichment/progress';
import { runBulk } from '../contacts/enrichment/run-bulk';
import { runPass } from '../contacts/enrichment/run-pass';
import { contactId, cursor, described, factoryId, upTo } from './fields';
import { operation } from './operation';
import type { UsageRecord } from '../contacts/enrichment/ports';
import type { BulkResult } from '../contacts/enrichment/run-bulk';
import type { PassResult } from '../contacts/enrichment/run-pass';

/** The most pages (of 100 contacts) one bulk call may be asked to take. */
export const BULK_PAGES_MAX = 1000;

/** Enrichment driven from the control room (docs/control-room.md#driving-it-from-the-control-room). */
export const ENRICHMENT_OPERATIONS = {
  'enrichment.refresh': operation({
    request: z.strictObject({
      factoryId,
      contactId,
      passId: z.optional(
        described(z.string().check(z.regex(/^[A-Za-z0-9-]{1,36}$/, { error: 'passId must be 1-36 letters, digits or dashes (a UUID fits)' })), {
          placeholder: 'uuid',
        }),
      ),
    }),
    run: async (request, { deps }) => {
      const result = await runPass(deps.enrichment, request.factoryId, request.contactId, { bulk: false, passId: request.passId });
      return { body: { ...result }, audit: { outcome: result.outcome, billed: result.billed } };
    },
  }),

  'enrichment.bulk': operation({
    request: z.strictObject({
      factoryId,
      cursor,
      // At most this many pages (of 100 contacts) in this call, then a cursor: a UI shows progress between calls.
      pages: upTo('pages', BULK_PAGES_MAX),
    }),
    run: async (request, { deps, keepGoing }) => {
      let pages = 0;
      const more = () => (request.pages === undefined || ++pages < request.pages) && keepGoing();
      const result = await runBulk(deps.enrichment, request.factoryId, { cursor: request.cursor, keepGoing: more });
      return {
        body: { ...result, progress: bulkProgress(request.factoryId, result.cursor, result.done) },
        audit: { ...result.summary, done: result.done },
      };
    },
  }),

  'enrichment.usage': operation({
    request: z.strictObject({ factoryId }),
    run: async ({ factoryId }, { deps }) => ({ body: { factoryId, periods: await deps.enrichment.store.usage(factoryId) }, audit: {} }),
  }),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
export type RefreshAnswer = PassResult;
export type BulkAnswer = BulkResult & {
  /** The share of the factory behind the run's cursor, 0 to 1. */
  progress: number;
};
export interface UsageAnswer {
  factoryId: string;
  periods: UsageRecord[];
}
