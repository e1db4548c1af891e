import type { APIGatewayProxyEvent, Context } from 'aws-lambda';

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

export const context = (): Context & { caller?: { factoryId: string; keyId: string } } =>
  ({ awsRequestId: 'test-request', getRemainingTimeInMillis: () => 10_000 }) as unknown as Context;

/** The `{error}` message of an HttpError built by apiError(). */
export const errorMessage = (error: unknown): string => JSON.parse((error as Error).message).error;
