import type { Contact } from '../../lambda/contacts/domain/contact';
import type { ContactStore, KeyAuthorizer } from '../../lambda/contacts/domain/ports';
import type { BareTarget } from '../../tools/bench/bare-client';
import { emptyServiceHandler } from '../../tools/bench/empty-service';
import { context, proxyEvent } from '../support/events';

/** The store ports, recording the calls in order: the empty service must make exactly the bare client's. */
function recordingDeps(outcome: 'allowed' | 'unknown' = 'allowed') {
  const calls: string[] = [];
  const contact: Contact = { id: 'ct_0123456789abcdef', factoryId: 'fac_1', email: 'a@b.co', source: 'api', createdAt: 't', updatedAt: 't' };
  const keys: KeyAuthorizer = {
    authorize: async () => {
      calls.push('authorize');
      return outcome === 'allowed' ? { outcome, factoryId: 'fac_1', keyId: 'key_1', rate: { limit: 100, remaining: 99, windowSeconds: 1 } } : { outcome };
    },
    knownCaller: () => undefined,
  };
  const contacts: ContactStore = {
    writeContact: async () => {
      calls.push('writeContact');
      return { contact, created: false };
    },
    createCompanyIfMissing: async () => undefined,
    getContact: async () => {
      calls.push('getContact');
      return contact;
    },
  };
  return { calls, deps: { keys, contacts }, contact };
}

const target: BareTarget = {
  factoryId: 'fac_1',
  keyHash: 'hash',
  contactId: 'ct_0123456789abcdef',
  write: { factoryId: 'fac_1', id: 'ct_0123456789abcdef', email: 'a@b.co', fields: {} },
};

describe('the empty service of the throughput comparison', () => {
  it("answers a POST with the upsert's calls, key check first, and their result as JSON", async () => {
    const { calls, deps, contact } = recordingDeps();
    const result = await emptyServiceHandler(deps, target)(proxyEvent({ httpMethod: 'POST' }), context());
    expect(calls).toEqual(['authorize', 'writeContact']);
    expect(result.statusCode).toBe(200);
    expect(JSON.parse(result.body)).toEqual({ contact, created: false });
  });

  it("answers a GET with the read's calls and the contact as JSON", async () => {
    const { calls, deps, contact } = recordingDeps();
    const result = await emptyServiceHandler(deps, target)(proxyEvent({ httpMethod: 'GET' }), context());
    expect(calls.sort()).toEqual(['authorize', 'getContact']);
    expect(JSON.parse(result.body)).toEqual({ contact });
  });

  it('fails, rather than answering, when the key check refuses: a run cannot count refused requests as served', async () => {
    const { deps } = recordingDeps('unknown');
    await expect(emptyServiceHandler(deps, target)(proxyEvent({ httpMethod: 'GET' }), context())).rejects.toThrow('key check answered unknown');
  });
});
