import type { APIGatewayProxyEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { benchDocumentClient, DELAY_ENV, entryPoint, injectedDelayMs } from '../../tools/bench/injected-delay';
import { CONTACTS_KEY, tableNamesFromEnv } from '../../lambda/store/schema';
import { context, proxyEvent } from '../support/events';

const DELAY_MS = 40;

describe('the injected delay of the throughput helpers', () => {
  it('reads the delay from the environment, none by default', () => {
    expect(injectedDelayMs({})).toBe(0);
    expect(injectedDelayMs({ [DELAY_ENV]: '5' })).toBe(5);
    expect(() => injectedDelayMs({ [DELAY_ENV]: '-1' })).toThrow(DELAY_ENV);
    expect(() => injectedDelayMs({ [DELAY_ENV]: 'soon' })).toThrow(DELAY_ENV);
  });

  it('delays every call of the bare client', async () => {
    const doc = benchDocumentClient(DELAY_MS);
    const started = performance.now();
    await doc.send(new GetCommand({ TableName: tableNamesFromEnv().contacts, Key: { [CONTACTS_KEY.partitionKey]: 'none', [CONTACTS_KEY.sortKey]: 'none' } }));
    expect(performance.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
    doc.destroy();
  });

  // The rebuilt entry point must carry the delay on the client its stores use:
  // an unknown key costs one DynamoDB call before its 401.
  it('delays the calls of the entry point it rebuilds', async () => {
    const handler = await entryPoint(DELAY_MS);
    const event: APIGatewayProxyEvent = proxyEvent({
      httpMethod: 'GET',
      path: '/api/v1/contacts/ct_none',
      headers: { Authorization: `Bearer dfsk_${'Z'.repeat(43)}` },
      requestContext: { requestId: 'bench-delay-test' } as APIGatewayProxyEvent['requestContext'],
    });
    const started = performance.now();
    const result = await handler(event, context());
    expect(result.statusCode).toBe(401);
    expect(performance.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
  });
});
