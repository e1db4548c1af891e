import { controlRoomWithFixedAnswers } from '../support/control-room';

/**
 * How the pages show what an operation answered, over HTTP, with the
 * operations replaced by fixed answers: every value shown one way, and no
 * link made of a missing id.
 */
const { answers, asked, room } = controlRoomWithFixedAnswers();

const CONTACT = { id: 'ct_0123456789abcdef', factoryId: 'fac_pages', email: 'ada@example.com', source: 'api', createdAt: '2026-11-21T09:00:00.000Z', updatedAt: '2026-11-21T09:00:00.000Z' };

test('a company without an id shows its name, never a link to /undefined', async () => {
  answers.set('contacts.show', { status: 200, body: { contact: { ...CONTACT, companyId: 'co_0123456789abcdef' }, company: { name: 'Acme', domain: 'acme.io' }, passes: [] } });
  const answer = await room().get(`/f/fac_pages/contacts/${CONTACT.id}`);
  expect(answer.status).toBe(200);
  expect(answer.text).toContain('Acme');
  expect(answer.text).not.toMatch(/href="[^"]*undefined/);
});

test('a value that is not text shows the same on every page: a number as written, a missing one as nothing', async () => {
  answers.set('contacts.show', { status: 200, body: { contact: { ...CONTACT, title: 42, name: null }, passes: [] } });
  answers.set('contacts.list', { status: 200, body: { contacts: [{ ...CONTACT, title: 42, name: null }] } });
  const page = await room().get(`/f/fac_pages/contacts/${CONTACT.id}`);
  const list = await room().get('/f/fac_pages/contacts');
  expect(page.text).toMatch(/<th scope="row">title<\/th><td>42<\/td>/);
  expect(page.text).toMatch(/<th scope="row">name<\/th><td><\/td>/);
  expect(list.text).toMatch(/<td>42<\/td>/);
  expect(`${page.text}${list.text}`).not.toMatch(/>null</);
});

test('a path parameter that does not have its shape is no page (404), and no operation is asked', async () => {
  answers.clear();
  asked.length = 0;
  const paths = ['/f/acme/contacts', '/f/fac_pages/contacts/ct_xyz', '/f/fac_pages/companies/acme.io', '/f/fac_pages/reports/issues/iss_1', '/f/fac_pages/export/contacts.xml'];
  const statuses = [];
  for (const path of paths) statuses.push((await room().get(path)).status);
  expect(statuses).toEqual(paths.map(() => 404));
  expect(asked).toEqual([]);
});
