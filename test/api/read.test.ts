import { putItem } from '../support/items';
import { bearer, issueKey, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';

let api: LocalApi;
let factoryId: string;
let auth: Record<string, string>;
const get = (path: string) => api.request('GET', path, { headers: auth });
const upsert = (body: unknown) => api.request('POST', '/api/v1/contacts', { headers: auth, body });

beforeAll(async () => {
  api = await startLocalApi();
  factoryId = newFactoryId('read');
  auth = bearer((await issueKey(factoryId)).key);
});
afterAll(() => api.close());

describe('GET /api/v1/contacts/{id}', () => {
  test('returns the contact as the upsert returned it', async () => {
    const created = await upsert({ email: 'read.id@example.com', name: 'Reader', phone: '1', page: '/p' });
    const res = await get(`/api/v1/contacts/${created.json.contact.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ contact: created.json.contact });
  });

  test('answers 404 for an id with no contact', async () => {
    const res = await get('/api/v1/contacts/ct_0123456789abcdef');
    expect(res.status).toBe(404);
    expect(res.json).toEqual({ error: expect.stringContaining('ct_0123456789abcdef') });
  });

  test('answers 404 for something that is not a contact id', async () => {
    for (const id of ['nope', 'ct_XYZ', 'company%23acme.io', '%E0%A4%A']) {
      const res = await get(`/api/v1/contacts/${id}`);
      expect(res.status).toBe(404);
      expect(typeof res.json.error).toBe('string');
    }
  });
});

describe('GET /api/v1/contacts?email=', () => {
  test('finds the contact by email, case-insensitively, through the same id', async () => {
    const created = await upsert({ email: 'find.me@example.com' });
    const res = await get('/api/v1/contacts?email=FIND.ME%40Example.com');
    expect(res.status).toBe(200);
    expect(res.json.contact).toEqual(created.json.contact);
  });

  test('reads a URL-encoded plus sign as a plus', async () => {
    const created = await upsert({ email: 'ada+crm@example.com' });
    const res = await get('/api/v1/contacts?email=ada%2Bcrm%40example.com');
    expect(res.json.contact.id).toBe(created.json.contact.id);
  });

  test('reads an unencoded plus sign (which arrives as a space) as a plus', async () => {
    const created = await upsert({ email: 'bob+tag@example.com' });
    const res = await get('/api/v1/contacts?email=bob+tag@example.com');
    expect(res.status).toBe(200);
    expect(res.json.contact.id).toBe(created.json.contact.id);
  });

  test('answers 404 for an address the upsert refuses, even when lowercasing it would name a contact', async () => {
    // KELVIN SIGN K lowercases to k; İ lowercases to i + U+0307: neither may reach those contacts.
    await upsert({ email: 'ka.read@example.com' });
    await upsert({ email: 'i\u0307stanbul.read@example.com' });
    for (const query of ['%E2%84%AAa.read%40example.com', '%C4%B0stanbul.read%40example.com']) {
      const res = await get(`/api/v1/contacts?email=${query}`);
      expect(res.status).toBe(404);
      expect(res.json).toEqual({ error: expect.stringContaining('No contact with email') });
    }
  });

  test('finds a contact by an address that differs only in letter case, in any script', async () => {
    const created = await upsert({ email: 'søren.σοφία@münchen.de' });
    const res = await get(`/api/v1/contacts?email=${encodeURIComponent('SØREN.ΣΟΦΊΑ@MÜNCHEN.DE')}`);
    expect(res.status).toBe(200);
    expect(res.json.contact.id).toBe(created.json.contact.id);
  });

  test('answers 404 for an email with no contact', async () => {
    const res = await get('/api/v1/contacts?email=nobody%40example.com');
    expect(res.status).toBe(404);
    expect(res.json.error).toMatch(/nobody@example.com/);
  });

  test('answers 400 without the email parameter, or with it empty', async () => {
    for (const path of ['/api/v1/contacts', '/api/v1/contacts?email=', '/api/v1/contacts?mail=a%40b.com']) {
      const res = await get(path);
      expect(res.status).toBe(400);
      expect(res.json.error).toMatch(/email/);
    }
  });

  test('answers 400 when email is sent twice', async () => {
    const res = await get('/api/v1/contacts?email=a%40example.com&email=b%40example.com');
    expect(res.status).toBe(400);
  });
});

describe('enrichment in reads (docs/contacts-api.md#the-contact, docs/control-room.md#enrichment)', () => {
  test('a contact never enriched has neither enriched nor enrichment', async () => {
    const created = await upsert({ email: 'plain@example.com' });
    const res = await get(`/api/v1/contacts/${created.json.contact.id}`);
    expect(res.json.contact).not.toHaveProperty('enriched');
    expect(res.json.contact).not.toHaveProperty('enrichment');
    expect(res.json.contact).not.toHaveProperty('location');
  });

  test('an enriched contact shows enriched, enrichment and the filled location', async () => {
    const created = await upsert({ email: 'rich@example.com', name: 'Rich' });
    const { id, ...rest } = created.json.contact;
    const enrichment = { provider: 'platform', at: '2026-11-21T10:00:00.000Z', fields: { location: 'London', name: 'R. Ich' } };
    await putItem({ ...rest, sk: id, location: 'London', enriched: true, enrichment });
    const res = await get(`/api/v1/contacts/${id}`);
    expect(res.json.contact).toMatchObject({ name: 'Rich', location: 'London', enriched: true, enrichment });
  });
});
