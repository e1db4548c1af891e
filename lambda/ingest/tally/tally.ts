import type { DynamoDBStreamEvent } from 'aws-lambda';
import { newCallLog, withCallLog } from '../../infrastructure/observability/call-log';
import { StorageUnavailableError } from '../../kernel/errors';
import { sha256Hex } from '../../kernel/hash';
import { loggerFromEnv } from '../../infrastructure/observability/logger';
import { TALLY_SERVICE_NAME } from '../../infrastructure/observability/names';
import { countDiscards, countSessions } from './count-sessions';
import type { ReadBatch, ReleaseCountsStore, SequencedDiscardCount, SequencedSessionCount, TallyStore } from './ports';
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
  /** Release health (docs/release-health.md): where sessions are counted, and the store's reading of the session counts a batch's records add. */
  sessions?: {
    store: ReleaseCountsStore;
    counts: (records: TallyEvent['Records']) => SequencedSessionCount[];
    discards: (records: TallyEvent['Records']) => SequencedDiscardCount[];
  };
  /** How long one invocation waits out a store that refuses for load or fails for a moment (PATIENCE_MS by default), and how it waits. */
  patienceMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * A store past its capacity, or failing for a moment, is waited out inside the invocation, the batch tried again
 * (it counts once however often it is tried): half the function's 60 s (lib/tally.ts). Only a store failing for
 * longer, or a fault in the code, fails the invocation, and so uses up one of the few tries the event source mapping
 * gives a batch before giving it up (lib/stream-failures.ts): capacity never costs a count.
 */
export const PATIENCE_MS = 30_000;
const FIRST_WAIT_MS = 100;
const LONGEST_WAIT_MS = 5000;

/** Runs the batch until it passes, waiting between tries while the store fails transiently and the patience lasts. */
async function patiently<T>(run: () => Promise<T>, patienceMs: number, sleep: (ms: number) => Promise<void>): Promise<T> {
  const deadline = Date.now() + patienceMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait * 2, LONGEST_WAIT_MS)) {
    try {
      return await run();
    } catch (error) {
      if (!(error instanceof StorageUnavailableError) || Date.now() + wait > deadline) throw error;
      await sleep(wait);
    }
  }
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
 * (docs/report-issues.md#events-set-aside), never thrown on. A store that
 * fails is waited out for a while (PATIENCE_MS); past that the invocation
 * fails: Lambda delivers the same records again (bisecting the batch, a few
 * times at most: lib/tally.ts), and the marks make that count once.
 */
export function createTallyHandler(
  { store, insertedEvents, sessions, patienceMs = PATIENCE_MS, sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms)) }: TallyDependencies,
  logger = loggerFromEnv(process.env, TALLY_SERVICE_NAME),
) {
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
    const sessionCounts = sessions?.counts(records) ?? [];
    const outcome = await withCallLog(calls, () => patiently(() => tallyBatch(store, shardKey, read.events, read.setAside), patienceMs, sleep));
    const counted =
      sessions && sessionCounts.length > 0
        ? await withCallLog(calls, () => patiently(() => countSessions(sessions.store, shardKey, sessionCounts), patienceMs, sleep))
        : undefined;
    const discards = sessions?.discards(records) ?? [];
    const discarded =
      sessions && discards.length > 0
        ? await withCallLog(calls, () => patiently(() => countDiscards(sessions.store, shardKey, discards), patienceMs, sleep))
        : undefined;
    const line = {
      records: records.length,
      ...outcome,
      ...(counted ?? {}),
      ...(discarded ?? {}),
      dynamoCalls: calls.calls,
      durationMs: Math.round(performance.now() - startedAt),
    };
    // A record set aside is counted on its factory; the line names it (ids and field names, never a value) for whoever looks.
    if (outcome.setAside) logger.warn('tally set records aside', line);
    else logger.info('tally', line);
    return answer;
  };
}
