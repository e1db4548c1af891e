/**
 * How queued events become requests. Each event is kept as its JSON text, so
 * a request body is those texts joined, and its size in bytes is known
 * before it is sent: the browser refuses keepalive and beacon bodies over a
 * shared 64 KiB budget (docs/browser-sdk.md, "Transport").
 */

/** The body of `POST /ingest/v1/events` for events already serialized. */
export const eventsBody = (events: readonly string[]): string => `{"events":[${events.join(',')}]}`;

const encoder = new TextEncoder();
/** Bytes of `text` in UTF-8, what the request carries. */
export const byteLength = (text: string): number => encoder.encode(text).length;

/** Bytes `{"events":[…]}` adds around the events, and each comma between them. */
const ENVELOPE = eventsBody([]).length;

/**
 * How many of the first queued events (their sizes in bytes, in order) go in
 * the next request: at most `maxEvents` and `maxBytes` in all, but always at
 * least one, so an event bigger than the budget still goes, alone.
 */
export function nextBatchSize(sizes: readonly number[], maxEvents: number, maxBytes: number): number {
  let bytes = ENVELOPE;
  let count = 0;
  for (const size of sizes) {
    if (count === maxEvents) break;
    bytes += size + (count > 0 ? 1 : 0);
    if (count > 0 && bytes > maxBytes) break;
    count += 1;
  }
  return count;
}

/** Splits the queue into consecutive requests by nextBatchSize. */
export function batches<T extends { bytes: number }>(items: readonly T[], maxEvents: number, maxBytes: number): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; ) {
    const count = nextBatchSize(
      items.slice(at, at + maxEvents).map((item) => item.bytes),
      maxEvents,
      maxBytes,
    );
    out.push(items.slice(at, at + count));
    at += count;
  }
  return out;
}

/** The two halves of a batch the browser refused as too big (the first one the larger). */
export function halves<T>(items: readonly T[]): [T[], T[]] {
  const middle = Math.ceil(items.length / 2);
  return [items.slice(0, middle), items.slice(middle)];
}
