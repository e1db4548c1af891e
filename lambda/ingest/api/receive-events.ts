import { readEvents, type ReceiveDependencies } from '../receive-events';
import type { Operation } from '../../infrastructure/http/pipeline';
import { json } from '../../infrastructure/http/responses';
import type { IngestSlot } from './ingest-slot';
import { storeAndAnswer } from './store-and-answer';

/**
 * POST /ingest/v1/events, once the route's steps have checked the content
 * type, the size, the key, the origin and the per-address limits, and parsed
 * the JSON: its events read one by one (a bad one is listed, the others
 * stored), then the one store path (storeAndAnswer); 202 `{accepted,
 * duplicates, rejected}`, 422 when no event is valid, 429 when a limit
 * refused (some events may be stored: a retry is safe).
 */
export function receiveEventsOperation(deps: ReceiveDependencies & { retentionDays: number; now?: () => number }): Operation<unknown, IngestSlot> {
  return storeAndAnswer(deps, {
    read: (body, receipt) => readEvents(body, receipt),
    listsRejected: true,
    answer: ({ accepted, duplicates, rejected }) => json(202, { accepted, duplicates, rejected }),
  });
}
