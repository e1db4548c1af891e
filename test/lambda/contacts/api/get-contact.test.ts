import { findContactOperation, getContactOperation } from '../../../../lambda/contacts/api/get-contact';
import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import { MemoryContactStore } from '../../../../lambda/infrastructure/memory/memory-contact-store';
import { newRequestState } from '../../../../lambda/infrastructure/http/request-state';
import { proxyEvent } from '../../../support/events';
import { stored } from '../../../support/emails';

const ID = contactId('fac_a', stored('ada+news@example.com'));

async function store() {
  const contacts = new MemoryContactStore();
  await contacts.writeContact({
    factoryId: 'fac_a',
    id: ID,
    email: stored('ada+news@example.com'),
    fields: {},
    now: '2026-11-21T09:00:00.000Z',
    creationToken: 't',
  });
  return contacts;
}
const state = (factoryId = 'fac_a') => ({ ...newRequestState({}), caller: { factoryId, keyId: 'key_a' } });
/** The answer, or the refusal thrown as an HttpError: status and error. */
async function answer(run: () => Promise<{ statusCode: number; body: string }>) {
  try {
    const result = await run();
    return { status: result.statusCode, body: JSON.parse(result.body) };
  } catch (error) {
    return { status: (error as { statusCode: number }).statusCode, body: JSON.parse((error as Error).message) };
  }
}

describe('GET /api/v1/contacts/{id}', () => {
  test("answers the contact of the caller's factory", async () => {
    const get = getContactOperation(await store());
    const found = await answer(() => get({ event: proxyEvent({ pathParameters: { id: ID } }), state: state(), body: undefined }));
    expect([found.status, found.body.contact.id]).toEqual([200, ID]);
  });

  test("another factory's id is 404, as an id of nobody", async () => {
    const get = getContactOperation(await store());
    const other = await answer(() => get({ event: proxyEvent({ pathParameters: { id: ID } }), state: state('fac_b'), body: undefined }));
    expect(other).toEqual({ status: 404, body: { error: `No contact with id "${ID}" in your factory.` } });
  });

  test('a bad escape in the path names no contact: 404 quoting the segment as sent', async () => {
    const get = getContactOperation(await store());
    const bad = await answer(() => get({ event: proxyEvent({ pathParameters: { id: '%E0%A4%A' } }), state: state(), body: undefined }));
    expect(bad).toEqual({ status: 404, body: { error: 'No contact with id "%E0%A4%A" in your factory.' } });
  });
});

describe('GET /api/v1/contacts?email=', () => {
  const byEmail = async (values: string[] | undefined) => {
    const find = findContactOperation(await store());
    const event = proxyEvent({
      multiValueQueryStringParameters: values ? { email: values } : null,
      queryStringParameters: values ? { email: values[values.length - 1] as string } : null,
    });
    return answer(() => find({ event, state: state(), body: undefined }));
  };

  test('finds the contact by its email; a "+" that arrived as a space is read back as "+"', async () => {
    expect((await byEmail(['ada news@example.com'])).body.contact.id).toBe(ID);
  });

  test('no email, or one given twice, is 400 saying what to send', async () => {
    expect((await byEmail(undefined)).status).toBe(400);
    expect((await byEmail(undefined)).body.error).toMatch(/^Missing query parameter "email"/);
    expect(await byEmail(['a@b.co', 'c@d.co'])).toEqual({ status: 400, body: { error: 'Send the email query parameter once.' } });
  });

  test('an email of nobody is 404, quoting it clipped', async () => {
    const missing = await byEmail([`${'n'.repeat(400)}@example.com`]);
    expect(missing.status).toBe(404);
    expect(missing.body.error.length).toBeLessThan(400);
  });
});
