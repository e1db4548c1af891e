import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { CallLog, RateStatus } from '../domain/ports';

/** Who is calling: set by the authenticate middleware from the key, never from the request. */
export interface Caller {
  factoryId: string;
  keyId: string;
}

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;
export interface ApiContext extends Context {
  caller?: Caller;
  /**
   * Set when a read runs while its key is still being confirmed (see
   * authenticate): the confirmed caller, or the rejection (401, 429, 503)
   * that must be answered instead of the read's result.
   */
  confirmation?: Promise<Caller>;
  /** Where the key stands against its limit, once the key check decided (allowed or throttled): the rate-limit headers. */
  rate?: RateStatus;
  /** The class of the error behind a 5xx, for the request log. */
  failure?: string;
  /** The storage calls this request made (set fresh for each request by the pipeline): its log line and metrics. */
  calls?: CallLog;
  /** The route label of the request (see routeLabeler), worked out once for the log line and the metrics. */
  route?: string;
  /** Where an ingest request came from, once its key and origin passed (middleware/ingest-access.ts). */
  client?: { origin: string; userAgent?: string };
  /** Fields an API adds to the request's log line (never a key, an address, a header or a body). */
  logFields?: Record<string, string | number | boolean | undefined>;
  /** Counts an API adds to the request's metrics (Count metrics under the service dimension). */
  counts?: Record<string, number>;
}

/** An event whose body has been parsed (and maybe validated) by the body middlewares. */
export type EventWithBody<TBody> = Omit<APIGatewayProxyEvent, 'body'> & { body: TBody };

/** A route's handler: plain async function of the (normalized) event and the context. */
export type RouteHandler<TEvent = ApiEvent> = (event: TEvent, context: ApiContext) => Promise<ApiResult>;
