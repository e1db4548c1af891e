import { createHash } from 'node:crypto';
import { contactItems, factoryItems } from '../support/items';
import { bearer, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

/** docs/contacts-api.md#the-contact, computed independently of the code under test. */
const expectedId = (factoryId: string, email: string) => `ct_${createHash('sha256').update(`${factoryId}:${email.toLowerCase()}`).digest('hex').slice(0, 16)}`;

const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

let api: LocalApi;
let factoryId: string;
let auth: Record<string, string>;
let n = 0;
const email = (label = 'p') => `${label}.${(n += 1)}@example.com`;
const upsert = (body: unknown) => api.request('POST', '/api/v1/contacts', { headers: auth, body });

beforeAll(async () => {
  api = await startLocalApi();
  factoryId = newFactoryId('upsert');
  auth = bearer((await issueKey(factoryId)).key);
});
afterAll(() => api.close());

describe('POST /api/v1/contacts creates a contact', () => {
  test('answers 201 with created true and the contact as stored', async () => {
    const address = email();
    const res = await upsert({ email: address, name: 'Ada Lovelace', title: 'Analyst' });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json.created).toBe(true);
    expect(res.json.contact).toEqual({
      id: expectedId(factoryId, address),
      factoryId,
      email: address,
      name: 'Ada Lovelace',
      title: 'Analyst',
      source: 'api',
      createdAt: expect.stringMatching(ISO_UTC),
      updatedAt: expect.stringMatching(ISO_UTC),
    });
    expect(res.json.contact.createdAt).toBe(res.json.contact.updatedAt);
  });

  test('derives the id from factory and lowercased email: ct_ + 16 hex of sha256', async () => {
    const res = await upsert({ email: 'Mixed.Case@Example.COM' });
    expect(res.json.contact.id).toBe(expectedId(factoryId, 'mixed.case@example.com'));
    expect(res.json.contact.id).toMatch(/^ct_[0-9a-f]{16}$/);
  });

  test('stores the email trimmed and lowercased', async () => {
    const res = await upsert({ email: '  Grace.Hopper@Example.com ' });
    expect(res.status).toBe(201);
    expect(res.json.contact.email).toBe('grace.hopper@example.com');
  });

  test('returns phone and page on reads too', async () => {
    const res = await upsert({ email: email(), phone: '+44 20 7946 0000', page: '/pricing' });
    expect(res.json.contact).toMatchObject({ phone: '+44 20 7946 0000', page: '/pricing' });
  });

  test('ignores unknown body fields', async () => {
    const res = await upsert({ email: email(), name: 'N', favouriteColour: 'teal', factoryId: 'fac_other', id: 'ct_0000000000000000' });
    expect(res.status).toBe(201);
    expect(res.json.contact).not.toHaveProperty('favouriteColour');
    expect(res.json.contact.factoryId).toBe(factoryId);
    expect(res.json.contact.id).not.toBe('ct_0000000000000000');
  });

  test('accepts each documented source value', async () => {
    for (const source of ['api', 'external_crm', 'ads', 'manual']) {
      const res = await upsert({ email: email(source), source });
      expect(res.status).toBe(201);
      expect(res.json.contact.source).toBe(source);
    }
  });
});

describe('POST /api/v1/contacts updates an existing contact', () => {
  test('answers 200 with created false for the same email in another case, createdAt unchanged', async () => {
    const address = email('case');
    const first = await upsert({ email: address });
    const second = await upsert({ email: address.toUpperCase(), name: 'Later' });
    expect(second.status).toBe(200);
    expect(second.json.created).toBe(false);
    expect(second.json.contact.id).toBe(first.json.contact.id);
    expect(second.json.contact.createdAt).toBe(first.json.contact.createdAt);
    expect(Date.parse(second.json.contact.updatedAt)).toBeGreaterThanOrEqual(Date.parse(first.json.contact.updatedAt));
  });

  test('keeps stored values of fields the body omits', async () => {
    const address = email('merge');
    await upsert({ email: address, name: 'Ada', title: 'CTO', phone: '123', page: '/a' });
    const res = await upsert({ email: address, title: 'CEO' });
    expect(res.json.contact).toMatchObject({ name: 'Ada', title: 'CEO', phone: '123', page: '/a' });
  });

  test('treats null and empty strings as omitted: they never clear a stored value', async () => {
    const address = email('clear');
    await upsert({ email: address, name: 'Ada', title: 'CTO', phone: '123' });
    const res = await upsert({ email: address, name: null, title: '', phone: '   ', source: null });
    expect(res.status).toBe(200);
    expect(res.json.contact).toMatchObject({ name: 'Ada', title: 'CTO', phone: '123', source: 'api' });
  });

  test('defaults source to api only on creation; an update without source keeps it', async () => {
    const address = email('source');
    const created = await upsert({ email: address, source: 'ads' });
    expect(created.json.contact.source).toBe('ads');
    const kept = await upsert({ email: address, name: 'X' });
    expect(kept.json.contact.source).toBe('ads');
    const changed = await upsert({ email: address, source: 'manual' });
    expect(changed.json.contact.source).toBe('manual');
  });

  test('is safe to retry: the same request twice gives one record', async () => {
    const body = { email: email('retry'), name: 'Same' };
    const first = await upsert(body);
    const second = await upsert(body);
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.json.contact).toEqual({ ...first.json.contact, updatedAt: second.json.contact.updatedAt });
  });
});

describe('free text is clipped, never rejected', () => {
  test.each([
    ['name', 200],
    ['title', 200],
    ['phone', 64],
    ['page', 2048],
  ])('clips %s to %i characters', async (field, limit) => {
    const res = await upsert({ email: email(field), [field]: 'x'.repeat(limit + 50) });
    expect(res.status).toBe(201);
    expect(res.json.contact[field]).toBe('x'.repeat(limit));
  });

  test('keeps a value of exactly the limit whole', async () => {
    const res = await upsert({ email: email(), name: 'y'.repeat(200) });
    expect(res.json.contact.name).toHaveLength(200);
  });

  test('counts characters, not UTF-16 units, and never splits one', async () => {
    const res = await upsert({ email: email(), name: '😀'.repeat(250) });
    expect(Array.from(res.json.contact.name as string)).toHaveLength(200);
    expect(res.json.contact.name).toBe('😀'.repeat(200));
  });
});

describe('email is validated, never truncated (422)', () => {
  const local = (length: number) => 'a'.repeat(length - '@example.com'.length);

  test('accepts an address of exactly 254 characters', async () => {
    const address = `${local(254)}@example.com`;
    const res = await upsert({ email: address });
    expect(res.status).toBe(201);
    expect(res.json.contact.email).toBe(address);
  });

  test.each([
    ['missing', {}],
    ['null', { email: null }],
    ['empty', { email: '' }],
    ['not a string', { email: 42 }],
    ['without @', { email: 'ada.example.com' }],
    ['with two @', { email: 'ada@lovelace@example.com' }],
    ['without a name', { email: '@example.com' }],
    ['without a domain', { email: 'ada@' }],
    ['with a space inside', { email: 'ada lovelace@example.com' }],
    ['of 255 characters', { email: `${'a'.repeat(255 - 12)}@example.com` }],
  ])('refuses an email %s', async (_label, body) => {
    const res = await upsert(body);
    expect(res.status).toBe(422);
    expect(res.json).toEqual({ error: expect.stringContaining('email') });
  });

  test('refuses an unknown source with 422 naming the accepted values', async () => {
    const res = await upsert({ email: email(), source: 'hubspotz' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/source must be one of api, external_crm, ads, manual/);
  });

  test('refuses a wrongly typed optional field with 422', async () => {
    const res = await upsert({ email: email(), name: { first: 'Ada' } });
    expect(res.status).toBe(422);
    expect(res.json.error).toBe('name must be a string');
  });

  test('refuses a body that is not a JSON object with 422', async () => {
    for (const body of ['[]', '"ada@example.com"', '42', 'null']) {
      const res = await upsert(body);
      expect(res.status).toBe(422);
      expect(res.json.error).toMatch(/must be a JSON object/);
    }
  });

  test('lists every problem of a body in one message', async () => {
    const res = await upsert({ email: 'nope', source: 'web' });
    expect(res.status).toBe(422);
    expect(res.json.error).toMatch(/email.*; source/);
  });
});

/** Sends `body`, expects a 422 whose error matches `problem`, and that no item (contact or company) was written or changed. */
async function refusedWithNothingStored(body: unknown, problem: RegExp) {
  const before = await factoryItems(factoryId);
  const res = await upsert(body);
  expect(res.status).toBe(422);
  expect(res.json).toEqual({ error: expect.stringMatching(problem) });
  expect(await factoryItems(factoryId)).toEqual(before);
}

describe('two addresses that differ in more than letter case are never one contact (422)', () => {
  test('the KELVIN SIGN K is refused, and the contact of the address with K is left as it was', async () => {
    const address = email('ka');
    await upsert({ email: address, name: 'Original' });
    await refusedWithNothingStored({ email: `\u212A${address.slice(1)}`, name: 'Changed' }, /^email must be in Unicode NFC: "\u212A" \(U\+212A\)/);
  });

  test('İ, whose lowercase is two characters, is refused rather than stored as i + U+0307', async () => {
    await refusedWithNothingStored({ email: `\u0130stanbul.${(n += 1)}@example.com` }, /"İ" \(U\+0130\), a capital without a one-letter lowercase/);
  });

  test('a decomposed é is refused with a message that says to send it precomposed (NFC)', async () => {
    await refusedWithNothingStored(
      { email: `jose\u0301.${(n += 1)}@example.com` },
      /NFC: send a letter and its combining mark as the one precomposed character/,
    );
  });

  test('an address that differs only in letter case, in any script, is the same contact', async () => {
    const first = await upsert({ email: `σοφία.${(n += 1)}@example.gr` });
    const second = await upsert({ email: first.json.contact.email.toUpperCase() });
    expect([first.status, second.status]).toEqual([201, 200]);
    expect(second.json.contact.id).toBe(first.json.contact.id);
  });
});

describe('the email is a dot-atom before the "@" and a host name after it (422)', () => {
  test.each([
    ['.a@example.com', /dot at the start or end of the name before the "@", or two dots in a row/],
    ['a.@example.com', /dot at the start or end of the name before the "@"/],
    ['a..b@example.com', /two dots in a row/],
    ['a@-example.com', /host name like example\.com after the "@": a label must not begin or end with a hyphen/],
    ['a@example_1.com', /"_" \(U\+005F\) after the "@"/],
    ['a@1.2.3.4', /its last label must have a letter/],
  ])('refuses %j and stores nothing', async (address, problem) => {
    await refusedWithNothingStored({ email: address }, problem);
  });
});

describe('source is one of the four values (422 otherwise)', () => {
  test.each([[''], ['   '], [' ads'], ['Ads']])('refuses source %j and stores nothing', async (source) => {
    await refusedWithNothingStored({ email: email('src'), source }, /^source must be one of api, external_crm, ads, manual \(got /);
  });

  test('null counts as omitted', async () => {
    const res = await upsert({ email: email('src'), source: null });
    expect(res.status).toBe(201);
    expect(res.json.contact.source).toBe('api');
  });
});

describe('free text follows one rule: well-formed, no controls, one line', () => {
  test.each([['name'], ['title'], ['company'], ['phone'], ['page']])('refuses a lone surrogate in %s with 422 naming it, and stores nothing', async (field) => {
    await refusedWithNothingStored(
      { email: email('lone'), [field]: 'a\ud800b', companyDomain: 'lone.example' },
      new RegExp(`^${field} is not well-formed Unicode: it has a lone surrogate \\(U\\+D800\\) at character 2`),
    );
  });

  test('strips NUL, BEL, C1 and bidi override controls, and makes line breaks and tabs spaces', async () => {
    const res = await upsert({
      email: email('clean'),
      name: 'Ada\u0000 \u0007Love\u0085lace\u202e',
      title: 'Chief\r\nAnalyst\tand\u2028more',
      phone: '\u2066+44 20\u2069',
    });
    expect(res.status).toBe(201);
    expect(res.json.contact).toMatchObject({ name: 'Ada Lovelace', title: 'Chief Analyst and more', phone: '+44 20' });
    const [item] = (await contactItems(factoryId)).filter((stored) => stored.sk === res.json.contact.id);
    expect(item).toMatchObject({ name: 'Ada Lovelace', title: 'Chief Analyst and more', phone: '+44 20' });
  });

  test('text that is only controls counts as omitted: it never clears a stored value', async () => {
    const address = email('ctl');
    await upsert({ email: address, name: 'Ada' });
    const res = await upsert({ email: address, name: '\u0000\u202e\n' });
    expect(res.status).toBe(200);
    expect(res.json.contact.name).toBe('Ada');
  });
});
