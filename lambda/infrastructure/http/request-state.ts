import { newCallLog, type CallLog } from '../observability/call-log';

/** Who is calling: set by the API's key check from the key, never from the request. */
export interface Caller {
  factoryId: string;
  keyId: string;
}

/** A value an API adds to a request's log line (never a key, an address, a header or a body). */
export type LogField = string | number | boolean | undefined;

/**
 * What one request learns on its way through the pipeline. The pipeline
 * makes one for each request (newRequestState, pipeline.ts) and hands it to
 * every middleware and route of that request only: nothing here can carry
 * over to the next request on a warm container, whatever field is added.
 *
 * The fields here are those every API's requests have. What only one API
 * learns lives in its `slot`, whose type the API declares in its own folder
 * (contacts/contacts-slot.ts, ingest/ingest-slot.ts), as Middy gives each
 * middleware its own key of `internal`: the shared pipeline carries it
 * without knowing what is inside.
 */
export interface RequestState<Slot extends object = object> {
  /** Who is calling, once the API's key check admitted the key. */
  caller?: Caller;
  /** The class of the error behind a 5xx, for the request log. */
  failure?: string;
  /** The storage calls this request made: its log line and metrics. */
  readonly calls: CallLog;
  /** The route label of the request (see routeLabeler), worked out once for the log line and the metrics. */
  route?: string;
  /** Fields the API adds to the request's log line. */
  logFields?: Record<string, LogField>;
  /** Counts the API adds to the request's metrics (Count metrics under the service dimension). */
  counts?: Record<string, number>;
  /** What this request's API alone keeps: made anew for each request from the API's spec (ApiSpec.slot). */
  readonly slot: Slot;
}

/** A request's state, its API's slot given fresh. */
export function newRequestState<Slot extends object>(slot: Slot): RequestState<Slot> {
  return { calls: newCallLog(), slot };
}

/** Adds to the request's log line and, when given, to its metrics. */
export function note(state: RequestState, fields: Record<string, LogField>, counts?: Record<string, number>): void {
  state.logFields = { ...state.logFields, ...fields };
  if (counts) state.counts = { ...state.counts, ...counts };
}

/** The authenticated caller; routes only run after the API's key check set it. */
export function callerOf(state: RequestState): Caller {
  if (!state.caller) throw new Error('route reached without an authenticated caller');
  return state.caller;
}
