import { createServer, type Server, type Socket } from 'node:net';
import type { Contact } from '../../lambda/domain/contact';
import type { CompanyRecord, ContactStore, ContactWrite } from '../../lambda/domain/ports';
import { StorageUnavailableError } from '../../lambda/store/errors';
import { companyItems, contactItems } from '../support/items';
import { bearer, issueKey, newFactoryId, realDependencies, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * The real DynamoDB store, with faults injected around it: a call can fail
 * before it reaches DynamoDB, or after DynamoDB applied it (the answer lost).
 */
class FaultyStore implements ContactStore {
  failNextWriteAfterApplying = false;
  failNextCompany = false;
  constructor(private readonly real: ContactStore) {}

  async writeContact(write: ContactWrite) {
    const result = await this.real.writeContact(write);
    if (this.failNextWriteAfterApplying) {
      this.failNextWriteAfterApplying = false;
      throw new StorageUnavailableError('UpdateItem (contact upsert)', new Error('injected: answer lost'));
    }
    return result;
  }

  async createCompanyIfMissing(company: CompanyRecord) {
    if (this.failNextCompany) {
      this.failNextCompany = false;
      throw new StorageUnavailableError('UpdateItem (company create)', new Error('injected: throttled'));
    }
    return this.real.createCompanyIfMissing(company);
  }

  getContact(factoryId: string, id: string): Promise<Contact | undefined> {
    return this.real.getContact(factoryId, id);
  }
}

const expect503 = (res: { status: number; json: any; headers: Record<string, unknown> }) => {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.json).toEqual({ error: expect.stringMatching(/retry the same request/) });
};

describe('a failed write answers 503, and retrying the same request converges', () => {
  let api: LocalApi;
  let store: FaultyStore;
  beforeAll(async () => {
    const deps = realDependencies();
    store = new FaultyStore(deps.contacts);
    api = await startLocalApi({ ...deps, contacts: store });
  });
  afterAll(() => api.close());

  test('a write applied but unanswered: 503, then the retry finds the one record', async () => {
    const factoryId = newFactoryId('fault');
    const auth = bearer((await issueKey(factoryId)).key);
    const body = { email: 'lost@example.com', name: 'Lost', companyDomain: 'lost.com' };
    store.failNextWriteAfterApplying = true;
    expect503(await api.request('POST', '/api/v1/contacts', { headers: auth, body }));
    const retry = await api.request('POST', '/api/v1/contacts', { headers: auth, body });
    expect(retry.status).toBe(200);
    expect(retry.json.contact).toMatchObject({ email: 'lost@example.com', name: 'Lost' });
    expect(await contactItems(factoryId)).toHaveLength(1);
    expect(await companyItems(factoryId)).toEqual([expect.objectContaining({ id: retry.json.contact.companyId })]);
  });

  test('the company write fails after the link was set: 503, then the retry creates the linked company', async () => {
    const factoryId = newFactoryId('fault');
    const auth = bearer((await issueKey(factoryId)).key);
    const body = { email: 'half@example.com', company: 'Half Co', companyDomain: 'half.co' };
    store.failNextCompany = true;
    expect503(await api.request('POST', '/api/v1/contacts', { headers: auth, body }));
    expect(await companyItems(factoryId)).toHaveLength(0);
    const retry = await api.request('POST', '/api/v1/contacts', { headers: auth, body });
    expect(retry.status).toBe(200);
    expect(await companyItems(factoryId)).toEqual([
      expect.objectContaining({ id: retry.json.contact.companyId, name: 'Half Co', domain: 'half.co' }),
    ]);
  });
});

describe('DynamoDB out of reach answers 503, never hangs', () => {
  const sockets: Socket[] = [];
  let blackHole: Server;
  let port: number;
  beforeAll(async () => {
    // Accepts connections and never answers: a stuck DynamoDB.
    blackHole = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => blackHole.listen(0, '127.0.0.1', resolve));
    port = (blackHole.address() as { port: number }).port;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => blackHole.close(resolve));
  });

  test('a stuck DynamoDB gives 503 on a write (bounded timeouts and retries)', async () => {
    const api = await startLocalApi(realDependencies({ endpoint: `http://127.0.0.1:${port}` }));
    try {
      const res = await api.request('POST', '/api/v1/contacts', {
        headers: bearer(`dfsk_${'a'.repeat(43)}`),
        body: { email: 'stuck@example.com' },
      });
      expect503(res);
    } finally {
      await api.close();
    }
  }, 15_000);

  test('a refused connection gives 503 on a read', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const closedPort = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const api = await startLocalApi(realDependencies({ endpoint: `http://127.0.0.1:${closedPort}` }));
    try {
      expect503(await api.request('GET', '/api/v1/contacts/ct_0123456789abcdef', { headers: bearer(`dfsk_${'b'.repeat(43)}`) }));
    } finally {
      await api.close();
    }
  }, 15_000);
});
