import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { RequestState } from './request-state';

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;

/**
 * The context every middleware and route of the pipeline sees: this
 * request's own view of the Lambda context (read through to it, see
 * pipeline.ts), carrying the state made for this request alone, with its
 * API's slot (`Slot`, declared in the API's folder).
 */
export interface ApiContext<Slot extends object = object> extends Context {
  readonly state: RequestState<Slot>;
}

/** A handler the router calls: plain async function of the (normalized) event and the request's context. */
export type RouteHandler<Slot extends object = object> = (event: ApiEvent, context: ApiContext<Slot>) => Promise<ApiResult>;
