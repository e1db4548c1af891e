import { answeringSelfCheck, checkCanaryContact } from '../../../../lambda/contacts/api/canary-check';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { SELF_CHECK_EVENT } from '../../../../lambda/infrastructure/deploy/self-check';
import { CANARY_EMAIL, CANARY_FACTORY_ID } from '../../../../lambda/kernel/canary';
import { StorageUnavailableError } from '../../../../lambda/kernel/errors';
import { lambdaContext, proxyEvent } from '../../../support/events';

const bodyOf = (answer: { body: string }) => JSON.parse(answer.body) as Record<string, unknown>;

describe("the contacts function's canary check", () => {
  test('writes the canary contact with the upsert and reads it back: 200 naming it', async () => {
    const store = new MemoryContactStore();
    const answer = await checkCanaryContact(store, new Date('2026-11-21T09:00:00Z'));
    expect(answer.statusCode).toBe(200);
    expect(bodyOf(answer)).toMatchObject({ factoryId: CANARY_FACTORY_ID, contactId: expect.stringMatching(/^ct_/) });
    expect((await store.getContact(CANARY_FACTORY_ID, String(bodyOf(answer).contactId)))?.email).toBe(CANARY_EMAIL);
  });

  test('run again leaves one canary contact, written anew', async () => {
    const store = new MemoryContactStore();
    const first = bodyOf(await checkCanaryContact(store, new Date('2026-11-21T09:00:00Z')));
    const second = bodyOf(await checkCanaryContact(store, new Date('2026-11-21T09:05:00Z')));
    expect(second.contactId).toBe(first.contactId);
    expect((await store.getContact(CANARY_FACTORY_ID, String(first.contactId)))?.updatedAt).toBe('2026-11-21T09:05:00.000Z');
  });

  test('a contact read back other than written is a 500 saying so', async () => {
    const store = new MemoryContactStore();
    store.getContact = async () => undefined;
    const answer = await checkCanaryContact(store);
    expect(answer.statusCode).toBe(500);
    expect(String(bodyOf(answer).error)).toMatch(/read back is not the one written/);
  });

  test("a failing call is a 503 naming the error's class and message", async () => {
    const store = new MemoryContactStore();
    store.writeContact = async () => {
      throw new StorageUnavailableError('UpdateItem (contact)', new Error('AccessDeniedException'));
    };
    const answer = await checkCanaryContact(store);
    expect([answer.statusCode, bodyOf(answer).error]).toEqual([503, 'StorageUnavailableError: UpdateItem (contact) failed: Error: AccessDeniedException']);
  });
});

describe("the handler's answer to the hook", () => {
  test('the self-check event is answered by the check, every other event by the API', async () => {
    const api = jest.fn(async () => ({ statusCode: 404, body: '{}' }));
    const check = jest.fn(async () => ({ statusCode: 200, body: '{"checked":"x"}', headers: {} }));
    const handler = answeringSelfCheck(api, check);
    expect((await handler(SELF_CHECK_EVENT as never, lambdaContext())).statusCode).toBe(200);
    expect((await handler(proxyEvent(), lambdaContext())).statusCode).toBe(404);
    expect([check.mock.calls.length, api.mock.calls.length]).toEqual([1, 1]);
  });
});
