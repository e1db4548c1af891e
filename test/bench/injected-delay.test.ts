import type { APIGatewayProxyEvent } from 'aws-lambda';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { benchDocumentClient, DELAY_ENV, entryPoint, injectedDelayMs } from '../../tools/bench/injected-delay';
import { CONTACTS_KEY, tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { context, proxyEvent } from '../support/events';

const DELAY_MS = 40;
/** The module object delay.ts calls (an `import * as` here would be a copy of it). */
const timersPromises = jest.requireActual<typeof import('node:timers/promises')>('node:timers/promises');

/**
 * The injected waits themselves, counted: a cold DynamoDB call alone can take
 * DELAY_MS, so the time a call took cannot tell a delay from none. Every
 * wait of delay.ts goes through node:timers/promises' setTimeout.
 */
function countInjectedWaits(): { waits: () => number; restore: () => void } {
  const spy = jest.spyOn(timersPromises, 'setTimeout');
  return { waits: () => spy.mock.calls.filter(([ms]) => ms === DELAY_MS).length, restore: () => spy.mockRestore() };
}

describe('the injected delay of the throughput helpers', () => {
  it('reads the delay from the environment, none by default', () => {
    expect(injectedDelayMs({})).toBe(0);
    expect(injectedDelayMs({ [DELAY_ENV]: '5' })).toBe(5);
    expect(() => injectedDelayMs({ [DELAY_ENV]: '-1' })).toThrow(DELAY_ENV);
    expect(() => injectedDelayMs({ [DELAY_ENV]: 'soon' })).toThrow(DELAY_ENV);
  });

  it('delays every call of the bare client, once per call', async () => {
    const doc = benchDocumentClient(DELAY_MS);
    const counted = countInjectedWaits();
    try {
      const get = () =>
        doc.send(new GetCommand({ TableName: tableNamesFromEnv().contacts, Key: { [CONTACTS_KEY.partitionKey]: 'none', [CONTACTS_KEY.sortKey]: 'none' } }));
      const started = performance.now();
      await get();
      expect(performance.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
      expect(counted.waits()).toBe(1);
      await get();
      expect(counted.waits()).toBe(2);
    } finally {
      counted.restore();
      doc.destroy();
    }
  });

  it('adds no wait without a delay', async () => {
    const doc = benchDocumentClient(0);
    const spy = jest.spyOn(timersPromises, 'setTimeout');
    try {
      await doc.send(new GetCommand({ TableName: tableNamesFromEnv().contacts, Key: { [CONTACTS_KEY.partitionKey]: 'none', [CONTACTS_KEY.sortKey]: 'none' } }));
      expect(spy).not.toHaveBeenCalled();
    } finally {
      spy.mockRestore();
      doc.destroy();
    }
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
    const counted = countInjectedWaits();
    try {
      const started = performance.now();
      const result = await handler(event, context());
      expect(result.statusCode).toBe(401);
      expect(performance.now() - started).toBeGreaterThanOrEqual(DELAY_MS);
      expect(counted.waits()).toBe(1);
    } finally {
      counted.restore();
    }
  });
});
