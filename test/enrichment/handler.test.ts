import type { Context } from 'aws-lambda';
import { referencePerson, uniqueEmail } from '../support/enrichment';
import { bearer, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/** The Lambda entry point itself, as the control room invokes it. */
let handler: typeof import('../../lambda/enrichment/handler').handler;
let api: LocalApi;
beforeAll(async () => {
  process.env.PLATFORM_NAME = 'Handler Platform';
  ({ handler } = await import('../../lambda/enrichment/handler'));
  api = await startLocalApi();
});
afterAll(() => api.close());

const lambdaContext = (remainingMs = 300_000) => ({ getRemainingTimeInMillis: () => remainingMs }) as unknown as Context;

describe('the enrichment Lambda', () => {
  test('{factoryId, contactId} refreshes one contact, visible in the public API', async () => {
    const factoryId = newFactoryId('lambda');
    const auth = bearer((await issueKey(factoryId)).key);
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Tokyo' });
    const { json } = await api.request('POST', '/api/v1/contacts', { headers: auth, body: { email } });
    const result = await handler({ factoryId, contactId: json.contact.id }, lambdaContext());
    expect(result).toMatchObject({ contactId: json.contact.id, outcome: 'enriched', billed: true, found: { location: 'Tokyo' } });
    const read = await api.request('GET', `/api/v1/contacts/${json.contact.id}`, { headers: auth });
    expect(read.json.contact).toMatchObject({ location: 'Tokyo', enriched: true, enrichment: { provider: 'Handler Platform' } });
  });

  test('{factoryId} runs a bulk pass and returns its summary', async () => {
    const factoryId = newFactoryId('lambda');
    const auth = bearer((await issueKey(factoryId)).key);
    for (let i = 0; i < 3; i += 1) {
      await api.request('POST', '/api/v1/contacts', { headers: auth, body: { email: uniqueEmail() } });
    }
    const all = await handler({ factoryId }, lambdaContext());
    expect(all).toEqual({ done: true, summary: { seen: 3, skipped: 0, enriched: 0, complete: 0, misses: 3, billed: 0 } });
  });

  test('a bad request fails with a message saying what to fix', async () => {
    await expect(handler({ factoryId: 'fac_x', contactId: 'nope' }, lambdaContext())).rejects.toThrow(/contactId must be a contact id/);
    await expect(handler('refresh everything', lambdaContext())).rejects.toThrow(/expected/);
  });
});
