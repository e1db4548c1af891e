import type { CallLog, RateStatus } from '../domain/ports';
import type { PublishableKey } from '../ingest/ports';
import type { SentryRequest } from '../ingest/sentry/sentry-request';

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
 */
export interface RequestState {
  /** Who is calling, once the API's key check admitted the key. */
  caller?: Caller;
  /**
   * Set when a read runs while its key is still being confirmed (see
   * contacts/authenticate.ts): the confirmed caller, or the rejection (401,
   * 429, 503) that must be answered instead of the read's result.
   */
  confirmation?: Promise<Caller>;
  /** Where the key stands against its limit, once the key check decided (allowed or throttled): the rate-limit headers. */
  rate?: RateStatus;
  /** The class of the error behind a 5xx, for the request log. */
  failure?: string;
  /** The storage calls this request made: its log line and metrics. */
  readonly calls: CallLog;
  /** The route label of the request (see routeLabeler), worked out once for the log line and the metrics. */
  route?: string;
  /** Where an ingest request came from, once its key and origin passed (ingest/ingest-access.ts). */
  client?: { origin: string; userAgent?: string; visitor?: string };
  /** The publishable key an ingest request came with, once checked: its limit is counted after the body is read (ingest/ingest-access.ts). */
  sender?: { key: PublishableKey; keyHash: string };
  /** A Sentry protocol request's body, framed before its key is checked (the key may be in the envelope: ingest/sentry-body.ts). */
  sentry?: SentryRequest;
  /** Fields the API adds to the request's log line. */
  logFields?: Record<string, LogField>;
  /** Counts the API adds to the request's metrics (Count metrics under the service dimension). */
  counts?: Record<string, number>;
}

export function newRequestState(): RequestState {
  return { calls: { calls: 0, latenciesMs: [] } };
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
