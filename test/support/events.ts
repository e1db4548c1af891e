import type { APIGatewayProxyEvent, Context } from 'aws-lambda';
import { newRequestState } from '../../lambda/infrastructure/http/request-state';
import type { ApiContext } from '../../lambda/infrastructure/http/types';

/** A minimal API Gateway proxy event for middleware tests. */
export function proxyEvent(overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: 'GET',
    path: '/api/v1/contacts',
    resource: '/{proxy+}',
    headers: {},
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: null,
    stageVariables: null,
    body: null,
    isBase64Encoded: false,
    requestContext: {} as APIGatewayProxyEvent['requestContext'],
    ...overrides,
  };
}

/** A Lambda context as the runtime hands it to the handler (one per container, reused by each request in tests that say so). */
export const lambdaContext = (): Context => ({
  awsRequestId: 'test-request',
  callbackWaitsForEmptyEventLoop: true,
  functionName: 'test-function',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test-function',
  memoryLimitInMB: '1024',
  logGroupName: '/aws/lambda/test-function',
  logStreamName: 'test-stream',
  getRemainingTimeInMillis: () => 10_000,
  done: () => undefined,
  fail: () => undefined,
  succeed: () => undefined,
});

/** A Lambda context as the pipeline hands it to its middlewares: with a state made for this request, and the API's slot when given. */
export function context(): ApiContext;
export function context<Slot extends object>(slot: Slot): ApiContext<Slot>;
export function context(slot: object = {}): ApiContext {
  return { ...lambdaContext(), state: newRequestState(slot) };
}

/** The `{error}` message of an HttpError built by apiError(). */
export const errorMessage = (error: unknown): string => JSON.parse((error as Error).message).error;

/** What `fn` throws (a check's or a body reader's refusal); fails the test when it returns. */
export function thrown(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a refusal, but it passed');
}
