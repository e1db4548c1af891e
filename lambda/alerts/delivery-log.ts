import { descending } from '../kernel/descending';
import type { Delivery, LogPositions } from './ports';

/**
 * The delivery log of several destinations as one list (docs/alerts.md):
 * each destination's deliveries sit in a partition of their own, so the
 * stores read each from its position on and merge the reads here, newest
 * first; two deliveries of one alert (the same sort key) by destination.
 */
export const newestDeliveryFirst = descending<Delivery>(
  (delivery) => delivery.sk,
  (delivery) => delivery.destinationId,
);

/** One destination's part of the log, as read from its position on: at most the page's limit, and whether more remain. */
export interface LogRead {
  destinationId: string;
  deliveries: Delivery[];
  more: boolean;
}

/**
 * The first `limit` of the merged reads, and where each destination goes on
 * from: its last delivery taken, or its old position when none was taken
 * (the top of the log when it had none). A destination whose part ended is
 * left out of `next`; no `next` when every part ended.
 */
export function mergeLogs(reads: readonly LogRead[], limit: number, after: LogPositions = {}): { deliveries: Delivery[]; next?: LogPositions } {
  const deliveries = reads
    .flatMap((read) => read.deliveries)
    .sort(newestDeliveryFirst)
    .slice(0, limit);
  const next: LogPositions = {};
  for (const read of reads) {
    const taken = deliveries.filter((delivery) => delivery.destinationId === read.destinationId);
    const last = taken[taken.length - 1];
    if (read.deliveries.length > taken.length || read.more) next[read.destinationId] = last ? last.sk : (after[read.destinationId] ?? LOG_TOP);
  }
  return { deliveries, ...(Object.keys(next).length > 0 ? { next } : {}) };
}

/**
 * The log of `destinationIds` from `after` on (./ports.ts, deliveryLog):
 * each destination still going read by `read` (its newest `limit` before
 * its position), then merged. Without `after`, every destination from its
 * newest delivery; with it, only the destinations it names.
 */
export async function readLog(
  destinationIds: readonly string[],
  query: { limit: number; after?: LogPositions },
  read: (destinationId: string, before: string | undefined) => Promise<{ deliveries: Delivery[]; more: boolean }>,
): Promise<{ deliveries: Delivery[]; next?: LogPositions }> {
  const { after } = query;
  const going = after === undefined ? destinationIds : destinationIds.filter((id) => after[id] !== undefined);
  const reads = await Promise.all(going.map(async (destinationId) => ({ destinationId, ...(await read(destinationId, after?.[destinationId])) })));
  return mergeLogs(reads, query.limit, after);
}

/** A position above every sort key: a destination's part of the log read from its newest delivery. */
export const LOG_TOP = '\uffff';
