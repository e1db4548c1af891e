import { controlRoomWithFixedAnswers } from '../support/control-room';

/**
 * How the pages show what an operation answered, over HTTP, with the
 * operations replaced by fixed answers: every value shown one way, and no
 * link made of a missing id.
 */
const { answers, asked, room } = controlRoomWithFixedAnswers();

const CONTACT = {
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_pages',
  email: 'ada@example.com',
  source: 'api',
  createdAt: '2026-11-21T09:00:00.000Z',
  updatedAt: '2026-11-21T09:00:00.000Z',
};

test('a company without an id shows its name, never a link to /undefined', async () => {
  answers.set('contacts.show', {
    status: 200,
    body: { contact: { ...CONTACT, companyId: 'co_0123456789abcdef' }, company: { name: 'Acme', domain: 'acme.io' }, passes: [] },
  });
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

test("the contacts list names a linked company by its domain, linking to the company's page; by its id when no domain came", async () => {
  answers.set('contacts.list', {
    status: 200,
    body: {
      contacts: [
        { ...CONTACT, companyId: 'co_0123456789abcdef', companyDomain: 'acme.io' },
        { ...CONTACT, id: 'ct_0123456789abcde0', email: 'bo@example.com', companyId: 'co_fedcba9876543210' },
      ],
    },
  });
  const list = (await room().get('/f/fac_pages/contacts')).text;
  expect(list).toContain('<a href="/f/fac_pages/companies/co_0123456789abcdef">acme.io</a>');
  expect(list).toContain('<a href="/f/fac_pages/companies/co_fedcba9876543210">co_fedcba9876543210</a>');
});

test('a path parameter that does not have its shape is no page (404), and no operation is asked', async () => {
  answers.clear();
  asked.length = 0;
  const paths = [
    '/f/acme/contacts',
    '/f/fac_pages/contacts/ct_xyz',
    '/f/fac_pages/companies/acme.io',
    '/f/fac_pages/reports/issues/iss_1',
    '/f/fac_pages/export/contacts.xml',
  ];
  const statuses = [];
  for (const path of paths) statuses.push((await room().get(path)).status);
  expect(statuses).toEqual(paths.map(() => 404));
  expect(asked).toEqual([]);
});

test("a contact's reports show what strangers wrote as text, link each report, and page with the operation's cursor", async () => {
  const hostile = '<img src=x onerror="window.__pwned=1">';
  answers.set('contacts.show', {
    status: 200,
    body: {
      contact: CONTACT,
      passes: [],
      reports: [
        {
          kind: 'event',
          eventId: '0b7c1a52-7f0e-4a5e-9a43-3f1e2b8c9d10',
          type: 'error',
          message: hostile,
          receivedAt: '2026-11-27T10:00:00.000Z',
          pageUrl: `https://x.example/${hostile}`,
        },
        { kind: 'feature-request', requestId: '1c8d2b63-8a1f-4b6f-8b54-4a2f3c9daf21', title: hostile, receivedAt: '2026-11-27T09:00:00.000Z' },
      ],
      reportsCursor: 'next-page',
    },
  });
  const page = (await room().get(`/f/fac_pages/contacts/${CONTACT.id}`)).text;
  expect(page).not.toContain(hostile);
  expect(page).toContain('&lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
  expect(page).toContain('href="/f/fac_pages/reports/events/0b7c1a52-7f0e-4a5e-9a43-3f1e2b8c9d10"');
  expect(page).toContain('href="/f/fac_pages/reports/feature-requests/1c8d2b63-8a1f-4b6f-8b54-4a2f3c9daf21"');
  expect(page).toContain(`href="/f/fac_pages/contacts/${CONTACT.id}?cursor=next-page&amp;page=2"`);
  expect(page).toContain(`href="/f/fac_pages/erase?contact=${CONTACT.id}"`);
});

test("a contact's page lists the person's feedback among their reports, its words as text, its time linked to its issue", async () => {
  const evil = '<img src=x onerror="window.__pwned=1">';
  answers.set('contacts.show', {
    status: 200,
    body: {
      contact: CONTACT,
      passes: [],
      reports: [
        {
          kind: 'feedback',
          feedbackId: '2d9e3c74-9b2a-4c7d-9c65-5b3d4daeb032',
          receivedAt: '2026-11-26T10:00:00.000Z',
          message: evil,
          issueId: 'iss_0123456789abcdef0123',
          url: evil,
        },
      ],
    },
  });
  const page = (await room().get(`/f/fac_pages/contacts/${CONTACT.id}`)).text;
  expect(page).toContain('<tr data-kind="feedback">');
  expect(page).toContain('<span class="badge">feedback</span> &lt;img src=x onerror=&quot;window.__pwned=1&quot;&gt;');
  expect(page).not.toContain(evil);
  expect(page).toContain('href="/f/fac_pages/reports/issues/iss_0123456789abcdef0123"');
});

test('the erasure page takes only a well-formed contact id from its address into the form', async () => {
  answers.set('contacts.show', { status: 200, body: { contact: CONTACT, passes: [], reports: [] } });
  const named = (await room().get(`/f/fac_pages/erase?contact=${CONTACT.id}`)).text;
  const forged = (await room().get('/f/fac_pages/erase?contact=%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E')).text;
  expect(named).toContain(`value="${CONTACT.id}"`);
  expect(named).toContain('ada@example.com');
  expect(forged).toContain('name="who" required value=""');
  expect(forged).not.toMatch(/<script>alert/);
});

describe('a factory that does not exist (no key was ever issued for it)', () => {
  test("its pages answer 404 with a page that says so and where to go, without asking the page's own operations", async () => {
    answers.clear();
    asked.length = 0;
    answers.set('keys.list', { status: 200, body: { factoryId: 'fac_typo', keys: [] } });
    for (const path of ['/f/fac_typo/contacts', '/f/fac_typo/reports/issues', '/f/fac_typo/alerts']) {
      const answer = await room().get(path);
      expect(answer.status).toBe(404);
      expect(answer.text).toContain('<h1>No factory fac_typo</h1>');
      expect(answer.text).toContain('href="/"');
      expect(answer.text).toContain('href="/f/fac_typo/keys"');
    }
    expect(asked.map((request) => request.operation)).toEqual(['keys.list', 'keys.list', 'keys.list']);
  });

  test('its keys page still opens, where a new factory gets its first key, and says what to check', async () => {
    answers.set('keys.list', { status: 200, body: { factoryId: 'fac_new', keys: [] } });
    const answer = await room().get('/f/fac_new/keys');
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('No key was ever issued for fac_new');
    expect(answer.text).toContain('id="create-key"');
  });

  test('a factory with a key is known from then on: its pages are asked for once, not checked again', async () => {
    asked.length = 0;
    answers.set('keys.list', { status: 200, body: { factoryId: 'fac_known', keys: [{ keyId: 'key_0123456789abcdef', type: 'secret', status: 'active' }] } });
    answers.set('contacts.list', { status: 200, body: { contacts: [] } });
    expect((await room().get('/f/fac_known/contacts')).status).toBe(200);
    expect((await room().get('/f/fac_known/contacts')).status).toBe(200);
    expect(asked.map((request) => request.operation)).toEqual(['keys.list', 'contacts.list', 'contacts.list']);
  });

  test('when the keys cannot be listed the page answers as it would', async () => {
    answers.set('keys.list', { status: 503, body: { error: 'storage unavailable' } });
    answers.set('contacts.list', { status: 200, body: { contacts: [] } });
    expect((await room().get('/f/fac_unsure/contacts')).status).toBe(200);
  });
});
