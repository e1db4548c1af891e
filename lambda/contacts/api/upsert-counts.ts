import { METRIC } from '../../infrastructure/observability/names';
import type { CountsOf } from '../../infrastructure/http/middleware/request-metrics';

// One object each, made once: the metrics line reads them on every upsert.
const CREATED = { [METRIC.contactsCreated]: 1 };
const UPDATED = { [METRIC.contactsUpdated]: 1 };

/** The contacts API's own metrics: a POST answered 201 created a contact, 200 updated one. */
export const upsertCounts: CountsOf = ({ event, status }) =>
  event.httpMethod === 'POST' && (status === 200 || status === 201) ? (status === 201 ? CREATED : UPDATED) : undefined;
