import type { DynamoDBStreamEvent } from 'aws-lambda';
import { newCallLog, withCallLog } from '../../infrastructure/observability/call-log';
import { sha256Hex } from '../../kernel/hash';
import { loggerFromEnv } from '../../infrastructure/observability/logger';
import { TALLY_SERVICE_NAME } from '../../infrastructure/observability/names';
import type { ReadBatch, TallyStore } from './ports';
import { tallyBatch } from './tally-batch';

/**
 * A batch of the reports table's stream as Lambda hands it over with a
 * tumbling window: the records, and the shard they come from, which the
 * tally's marks are kept per (docs/report-issues.md#exact-counts).
 */
export type TallyEvent = DynamoDBStreamEvent & { shardId?: string };

/**
 * What the tally needs: its store, and the store's reading of a batch as the events it newly stored and the
 * records it could not read or count (lambda/infrastructure/store/reports/stream-records.ts): never a throw.
 */
export interface TallyDependencies {
  store: TallyStore;
  insertedEvents: (records: TallyEvent['Records']) => ReadBatch;
}

/** What a tumbling window's invocation must answer: a state (the tally keeps none) and no failed items. */
export interface TallyAnswer {
  state: Record<string, never>;
  batchItemFailures: [];
}

/** The shard id, shortened to the mark's key: 48 bits of its hash, far from colliding among a table's shards. */
export const shardKeyOf = (shardId: string): string => sha256Hex(shardId).slice(0, 12);

/**
 * The tally (docs/report-issues.md#exact-counts): counts newly stored events
 * into their issues and lists them on feed pages, from the reports table's
 * stream. A record it cannot count is set aside and counted apart
 * (docs/report-issues.md#events-set-aside), never thrown on. A failure of
 * the store throws: Lambda delivers the same records again (bisecting the
 * batch, a few times at most: lib/tally.ts), and the marks make that count
 * once.
 */
export function createTallyHandler({ store, insertedEvents }: TallyDependencies, logger = loggerFromEnv(process.env, TALLY_SERVICE_NAME)) {
  return async (event: TallyEvent): Promise<TallyAnswer> => {
    const records = event.Records ?? [];
    const answer: TallyAnswer = { state: {}, batchItemFailures: [] };
    if (records.length === 0) return answer;
    if (!event.shardId) {
      throw new Error('the tally needs the stream shard of its records (shardId): its event source mapping must have a tumbling window (lib/tally.ts)');
    }
    const calls = newCallLog();
    const startedAt = performance.now();
    const shardKey = shardKeyOf(event.shardId);
    const read = insertedEvents(records);
    const outcome = await withCallLog(calls, () => tallyBatch(store, shardKey, read.events, read.setAside));
    const line = { records: records.length, ...outcome, dynamoCalls: calls.calls, durationMs: Math.round(performance.now() - startedAt) };
    // A record set aside is counted on its factory; the line names it (ids and field names, never a value) for whoever looks.
    if (outcome.setAside) logger.warn('tally set records aside', line);
    else logger.info('tally', line);
    return answer;
  };
}
