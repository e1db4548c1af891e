import { upsertContactOperation } from '../../../../lambda/contacts/api/upsert-contact';
import { upsertBody } from '../../../../lambda/contacts/domain/upsert-input';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';
import { proxyEvent } from '../../../support/events';

const state = () => ({ ...newRequestState({}), caller: { factoryId: 'fac_a', keyId: 'key_a' } });

describe('POST /api/v1/contacts, once its body is read', () => {
  test('201 with created: true when the call created the contact, 200 with created: false after', async () => {
    const upsert = upsertContactOperation(new MemoryContactStore());
    const body = upsertBody.parse({ email: 'ada@example.com' });
    const first = await upsert({ event: proxyEvent({ httpMethod: 'POST' }), state: state(), body });
    const second = await upsert({ event: proxyEvent({ httpMethod: 'POST' }), state: state(), body });
    expect([first.statusCode, JSON.parse(first.body).created]).toEqual([201, true]);
    expect([second.statusCode, JSON.parse(second.body).created]).toEqual([200, false]);
  });

  test("writes into the caller's factory, whatever the body says", async () => {
    const contacts = new MemoryContactStore();
    const answer = await upsertContactOperation(contacts)({
      event: proxyEvent({ httpMethod: 'POST' }),
      state: state(),
      body: upsertBody.parse({ email: 'a@b.co', factoryId: 'fac_other' }),
    });
    expect(JSON.parse(answer.body).contact.factoryId).toBe('fac_a');
  });
});
