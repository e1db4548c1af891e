import { handleControlRequest } from '../../../lambda/control/handle-request';
import { InvalidCursorError, StorageUnavailableError } from '../../../lambda/kernel/errors';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/** One control-room call, start to end: never throws, every failure a status and {"error"}, the audit beside it. */
const room = memoryControlRoom();
const call = (event: unknown, options = {}) => handleControlRequest(room.deps, event, { principal: CONTROL_CALLER }, options);

describe('a call', () => {
  test("answers 200 with the operation's object, the audit naming the operation, factory, ids and caller", async () => {
    const contact = await room.upsert({ email: 'a@b.co' });
    const answer = await call({ operation: 'contacts.show', factoryId: 'fac_rules', contactId: contact.id });
    expect(answer.status).toBe(200);
    expect(answer.audit).toMatchObject({ operation: 'contacts.show', factoryId: 'fac_rules', contactId: contact.id, principal: CONTROL_CALLER });
  });

  test('a request it cannot read is 400, the audit naming the operation asked for only when it is a plausible name', async () => {
    expect(await call({ operation: 'contacts.drop', factoryId: 'fac_rules' })).toMatchObject({
      status: 400,
      audit: { operation: 'contacts.drop', principal: CONTROL_CALLER },
    });
    const hostile = await call({ operation: '<script>'.repeat(10), factoryId: 'fac_rules' });
    expect(hostile.status).toBe(400);
    expect(hostile.audit).toEqual({ principal: CONTROL_CALLER });
    expect((await call('not an object')).status).toBe(400);
  });

  test("an operation's own refusal answers its status in its words", async () => {
    expect(await call({ operation: 'contacts.show', factoryId: 'fac_rules', contactId: 'ct_0000000000000000' })).toMatchObject({
      status: 404,
      body: { error: 'no contact ct_0000000000000000 in fac_rules' },
    });
  });

  test('a bad cursor is 400; storage trouble 503, safe to retry, its cause in the audit only', async () => {
    room.store.listContacts = async () => {
      throw new InvalidCursorError('cursor is not one this service returned');
    };
    expect(await call({ operation: 'contacts.list', factoryId: 'fac_rules' })).toMatchObject({
      status: 400,
      body: { error: 'cursor is not one this service returned' },
    });
    room.store.listContacts = async () => {
      throw new StorageUnavailableError('Query (contacts)', new Error('ThrottlingException'));
    };
    const unavailable = await call({ operation: 'contacts.list', factoryId: 'fac_rules' });
    expect(unavailable).toMatchObject({
      status: 503,
      body: { error: 'storage unavailable: retrying the same request is safe' },
      audit: { errorClass: 'StorageUnavailableError' },
    });
    expect(JSON.stringify(unavailable.body)).not.toContain('Throttling');
  });

  test('anything else is a 500 that says to see the log, its class and message in the audit', async () => {
    room.store.listContacts = async () => {
      throw new RangeError('out of range');
    };
    expect(await call({ operation: 'contacts.list', factoryId: 'fac_rules' })).toMatchObject({
      status: 500,
      body: { error: 'internal error: see the function log' },
      audit: { errorClass: 'RangeError', error: 'out of range' },
    });
  });

  test("a bulk run stops when the caller's keepGoing says so, with a cursor to go on from", async () => {
    for (let n = 0; n < 101; n += 1) await room.upsert({ email: `p${n}@example.com` });
    const answer = await call({ operation: 'enrichment.bulk', factoryId: 'fac_rules' }, { keepGoing: () => false });
    expect(answer.body).toMatchObject({ done: false, cursor: expect.any(String) });
  });
});
