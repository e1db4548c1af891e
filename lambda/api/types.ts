import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';

/** Who is calling: set by the authenticate middleware from the key, never from the request. */
export interface Caller {
  factoryId: string;
  keyId: string;
}

export type ApiEvent = APIGatewayProxyEvent;
export type ApiResult = APIGatewayProxyResult;
export interface ApiContext extends Context {
  caller?: Caller;
}

/** An event whose body has been parsed (and maybe validated) by the body middlewares. */
export type EventWithBody<TBody> = Omit<APIGatewayProxyEvent, 'body'> & { body: TBody };

/** A route's handler: plain async function of the (normalized) event and the context. */
export type RouteHandler<TEvent = ApiEvent> = (event: TEvent, context: ApiContext) => Promise<ApiResult>;
