import { DIRECT_INVOKE_REFUSED } from '../../lambda/control/control-room-entry';
import { CSV_COLUMNS } from '../../lambda/control/export-format';
import { CONTROL_ROOM_SERVICE_NAME } from '../../lambda/infrastructure/observability/names';
import { CONTROL_ROOM_ARN, loadControlHandler } from '../support/control';
import { billedPasses, referencePerson, uniqueEmail } from '../support/enrichment';
import { getItem, putItem } from '../support/items';
import { newTenant, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * Every control-room operation through the Lambda entry point, as the
 * control room's function URL invokes it (IAM-signed POST), on DynamoDB
 * Local: answers, errors, and the one audit line each call writes.
 */
let api: LocalApi;
let control: ReturnType<typeof loadControlHandler>;
beforeAll(async () => {
  api = await startLocalApi();
  // As the stack configures the function (test/cdk/stack.test.ts holds the stack to it).
  control = loadControlHandler({ PLATFORM_NAME: 'Control Platform', POWERTOOLS_SERVICE_NAME: CONTROL_ROOM_SERVICE_NAME });
});
afterAll(() => api.close());

/** A fresh factory with contacts written through the public API. */
async function factory(label = 'ctl') {
  const tenant = await newTenant(api, label);
  return {
    ...tenant,
    add: async (body: Record<string, unknown>) => (await tenant.upsert(body)).json.contact as Record<string, any>,
    get: async (id: string) => (await tenant.read(id)).json.contact as Record<string, any>,
  };
}

/** The one audit line of a call. */
function auditLine(lines: Record<string, unknown>[]) {
  const audit = lines.filter((line) => line.message === 'control room');
  expect(audit).toHaveLength(1);
  return audit[0] as Record<string, any>;
}

describe('contacts.list', () => {
  test('pages through a factory in id order with a cursor, each contact as the API shows it', async () => {
    const { factoryId, add, get } = await factory();
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push((await add({ email: uniqueEmail(`l${i}-`), title: `T${i}` })).id);
    ids.sort();
    const first = await control.call({ operation: 'contacts.list', factoryId, limit: 3 });
    expect(first.status).toBe(200);
    expect(first.body.contacts.map((c: { id: string }) => c.id)).toEqual(ids.slice(0, 3));
    expect(first.body.contacts[0]).toEqual(await get(ids[0] as string));
    const second = await control.call({ operation: 'contacts.list', factoryId, limit: 3, cursor: first.body.cursor });
    expect(second.body.contacts.map((c: { id: string }) => c.id)).toEqual(ids.slice(3));
    expect(second.body.cursor).toBeUndefined();
  });

  test('filters by enriched and by updated-since', async () => {
    const { factoryId, add } = await factory();
    const known = uniqueEmail('known-');
    await referencePerson(known, { location: 'Oslo' });
    const enriched = await add({ email: known });
    const plain = await add({ email: uniqueEmail('plain-') });
    await control.call({ operation: 'enrichment.refresh', factoryId, contactId: enriched.id });
    const ids = async (extra: Record<string, unknown>) =>
      (await control.call({ operation: 'contacts.list', factoryId, ...extra })).body.contacts.map((c: { id: string }) => c.id);
    expect(await ids({ enriched: true })).toEqual([enriched.id]);
    expect(await ids({ enriched: false })).toEqual([plain.id]);
    expect(await ids({ updatedSince: '2999-01-01' })).toEqual([]);
    expect((await ids({ updatedSince: plain.updatedAt })).sort()).toEqual([enriched.id, plain.id].sort());
  });
});

describe('contacts.show', () => {
  test('shows everything stored about one contact: the view, the enrichment record, markers, the linked company', async () => {
    const { factoryId, add } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'CTO' });
    const contact = await add({ email, company: 'Initech', companyDomain: 'initech.example' });
    const passId = '0b7e2f5c-1d3a-4e8b-9c6f-2a1b3c4d5e6f';
    await control.call({ operation: 'enrichment.refresh', factoryId, contactId: contact.id, passId });
    const { status, body } = await control.call({ operation: 'contacts.show', factoryId, contactId: contact.id });
    expect(status).toBe(200);
    expect(body.contact).toMatchObject({ id: contact.id, title: 'CTO', enriched: true, enrichment: { provider: 'Control Platform' } });
    expect(body.contact.enrichmentCheckedAt).toEqual(body.contact.enrichment.at);
    expect(body.company).toEqual({ id: contact.companyId, domain: 'initech.example', name: 'Initech', createdAt: contact.createdAt });
    expect(body.passes).toEqual([{ passId, at: body.contact.enrichment.at, expiresAt: expect.any(Number) }]);
  });

  test('finds the linked company also when its item predates the byCompany index (no companyId on it)', async () => {
    const { factoryId, add } = await factory();
    const contact = await add({ email: uniqueEmail(), companyDomain: 'legacy.example' });
    // The company item as versions before the index wrote it.
    await putItem({ factoryId, sk: 'company#legacy.example', id: contact.companyId, domain: 'legacy.example', name: 'Legacy', createdAt: contact.createdAt });
    const { body } = await control.call({ operation: 'contacts.show', factoryId, contactId: contact.id });
    expect(body.company).toEqual({ id: contact.companyId, domain: 'legacy.example', name: 'Legacy', createdAt: contact.createdAt });
  });

  test('an unknown contact is 404 {"error"}', async () => {
    const { factoryId } = await factory();
    const { status, body } = await control.call({ operation: 'contacts.show', factoryId, contactId: 'ct_0000000000000000' });
    expect(status).toBe(404);
    expect(body).toEqual({ error: `no contact ct_0000000000000000 in ${factoryId}` });
  });
});

describe('contacts.export', () => {
  test('exports JSON lines page by page: the pages together are every contact once', async () => {
    const { factoryId, add } = await factory();
    for (let i = 0; i < 5; i += 1) await add({ email: uniqueEmail(`x${i}-`) });
    const lines: string[] = [];
    let cursor: string | undefined;
    do {
      const { body } = await control.call({ operation: 'contacts.export', factoryId, limit: 2, ...(cursor ? { cursor } : {}) });
      expect(body).toMatchObject({ format: 'jsonl', count: expect.any(Number) });
      lines.push(...body.data.split('\n').filter(Boolean));
      cursor = body.cursor;
    } while (cursor);
    const ids = lines.map((line) => JSON.parse(line).id);
    expect(ids).toHaveLength(5);
    expect(new Set(ids).size).toBe(5);
    expect([...ids].sort()).toEqual(ids);
  });

  test('exports CSV with the header on the first page only', async () => {
    const { factoryId, add } = await factory();
    await add({ email: uniqueEmail('c1-'), name: 'Comma, "Quoted"' });
    await add({ email: uniqueEmail('c2-'), title: '=1+1' });
    const first = await control.call({ operation: 'contacts.export', factoryId, format: 'csv', limit: 1 });
    const second = await control.call({ operation: 'contacts.export', factoryId, format: 'csv', limit: 1, cursor: first.body.cursor });
    const text = first.body.data + second.body.data;
    const rows = text.split('\r\n').filter(Boolean);
    expect(rows[0]).toBe(CSV_COLUMNS.join(','));
    expect(rows).toHaveLength(3);
    expect(text).toContain('"Comma, ""Quoted"""');
    expect(text).toContain(",'=1+1,");
  });
});

describe('contacts.clear', () => {
  test('clears fields: gone from the API, recorded with the caller and reason, updatedAt moves, createdAt stays', async () => {
    const { factoryId, add, get } = await factory();
    const contact = await add({ email: uniqueEmail(), name: 'Keep', title: 'Wrong', phone: '+1 555 0100', companyDomain: 'clear.example' });
    const { status, body } = await control.call({
      operation: 'contacts.clear',
      factoryId,
      contactId: contact.id,
      fields: ['title', 'company', 'page'],
      reason: 'customer ticket 4711',
    });
    expect(status).toBe(200);
    expect(body).toMatchObject({ cleared: ['title', 'companyId'], alreadyEmpty: ['page'], changed: [] });
    const after = await get(contact.id);
    expect(after).toMatchObject({ name: 'Keep', phone: '+1 555 0100', createdAt: contact.createdAt });
    expect(after.title).toBeUndefined();
    expect(after.companyId).toBeUndefined();
    expect(after.cleared).toBeUndefined(); // the public API never shows it
    expect(after.updatedAt > contact.updatedAt).toBe(true);
    expect(body.contact.cleared).toEqual({
      title: { value: 'Wrong', at: after.updatedAt, by: CONTROL_ROOM_ARN, reason: 'customer ticket 4711' },
      companyId: { value: contact.companyId, at: after.updatedAt, by: CONTROL_ROOM_ARN, reason: 'customer ticket 4711' },
    });
  });

  test('a field enrichment filled and the operator cleared is not refilled by a later pass; a caller write fills it', async () => {
    const { factoryId, add, get, upsert } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { title: 'Wrong Title', location: 'Lima' });
    const contact = await add({ email });
    await control.call({ operation: 'enrichment.refresh', factoryId, contactId: contact.id });
    await control.call({ operation: 'contacts.clear', factoryId, contactId: contact.id, fields: ['title'] });

    const again = await control.call({ operation: 'enrichment.refresh', factoryId, contactId: contact.id });
    expect(again.body).toMatchObject({ outcome: 'complete', ignored: ['title'], found: { location: 'Lima' } });
    const after = await get(contact.id);
    expect(after.title).toBeUndefined();
    expect(after).toMatchObject({ location: 'Lima', enriched: true, enrichment: { fields: { location: 'Lima' } } });

    expect((await upsert({ email, title: 'Right Title' })).json.contact.title).toBe('Right Title');
    expect(await billedPasses(factoryId)).toBe(2);
  });

  test('unknown fields and unknown contacts are refused', async () => {
    const { factoryId, add } = await factory();
    const contact = await add({ email: uniqueEmail() });
    const email = await control.call({ operation: 'contacts.clear', factoryId, contactId: contact.id, fields: ['email'] });
    expect(email.status).toBe(400);
    expect(email.body.error).toMatch(/field "email" cannot be cleared/);
    const missing = await control.call({ operation: 'contacts.clear', factoryId, contactId: 'ct_0000000000000000', fields: ['title'] });
    expect(missing.status).toBe(404);
  });
});

describe('companies', () => {
  test("companies.list pages through the factory's companies; companies.contacts lists the contacts linked to one", async () => {
    const { factoryId, add } = await factory();
    const a1 = await add({ email: uniqueEmail('a1-'), company: 'Alpha', companyDomain: 'alpha.example' });
    const a2 = await add({ email: uniqueEmail('a2-'), companyDomain: 'alpha.example' });
    await add({ email: uniqueEmail('b1-'), companyDomain: 'beta.example' });
    await add({ email: uniqueEmail('n1-') });

    const first = await control.call({ operation: 'companies.list', factoryId, limit: 1 });
    const second = await control.call({ operation: 'companies.list', factoryId, limit: 1, cursor: first.body.cursor });
    expect([...first.body.companies, ...second.body.companies]).toEqual([
      { id: a1.companyId, domain: 'alpha.example', name: 'Alpha', createdAt: a1.createdAt },
      { id: expect.stringMatching(/^co_/), domain: 'beta.example', name: 'beta.example', createdAt: expect.any(String) },
    ]);

    const linked = await control.call({ operation: 'companies.contacts', factoryId, companyId: a1.companyId });
    expect(linked.status).toBe(200);
    expect(linked.body.contacts.map((c: { id: string }) => c.id).sort()).toEqual([a1.id, a2.id].sort());
    expect(linked.body.cursor).toBeUndefined();
  });

  test("a contact whose company link was cleared is no longer among the company's contacts", async () => {
    const { factoryId, add } = await factory();
    const kept = await add({ email: uniqueEmail('k-'), companyDomain: 'gamma.example' });
    const unlinked = await add({ email: uniqueEmail('u-'), companyDomain: 'gamma.example' });
    await control.call({ operation: 'contacts.clear', factoryId, contactId: unlinked.id, fields: ['company'] });
    const linked = await control.call({ operation: 'companies.contacts', factoryId, companyId: kept.companyId });
    expect(linked.body.contacts.map((c: { id: string }) => c.id)).toEqual([kept.id]);
  });

  test("another factory's company shows none of its contacts", async () => {
    const owner = await factory();
    const other = await factory();
    const contact = await owner.add({ email: uniqueEmail(), companyDomain: 'delta.example' });
    const linked = await control.call({ operation: 'companies.contacts', factoryId: other.factoryId, companyId: contact.companyId });
    expect(linked.body.contacts).toEqual([]);
  });
});

describe('enrichment under the control room', () => {
  test('enrichment.refresh, enrichment.bulk and enrichment.usage answer as the enrichment function did', async () => {
    const { factoryId, add } = await factory();
    const email = uniqueEmail();
    await referencePerson(email, { location: 'Tokyo' });
    const known = await add({ email });
    await add({ email: uniqueEmail() });
    const refresh = await control.call({ operation: 'enrichment.refresh', factoryId, contactId: known.id });
    expect(refresh.body).toEqual({ contactId: known.id, outcome: 'enriched', billed: true, found: { location: 'Tokyo' } });
    const bulk = await control.call({ operation: 'enrichment.bulk', factoryId });
    expect(bulk.body).toEqual({ done: true, progress: 1, summary: { seen: 2, skipped: 1, enriched: 0, complete: 0, misses: 1, billed: 0 } });
    const usage = await control.call({ operation: 'enrichment.usage', factoryId });
    expect(usage.body).toEqual({ factoryId, periods: [expect.objectContaining({ billedPasses: 1 })] });
  });

  test("the enrichment function's old shapes still work: {factoryId, contactId, passId?} and {factoryId, cursor?}", async () => {
    const { factoryId, add } = await factory();
    const contact = await add({ email: uniqueEmail() });
    const refresh = await control.call({ factoryId, contactId: contact.id, passId: 'legacy-1' });
    expect(refresh.body).toMatchObject({ contactId: contact.id, outcome: 'miss' });
    const bulk = await control.call({ factoryId });
    expect(bulk.body).toMatchObject({ done: true, summary: { seen: 1 } });
    const misspelt = await control.call({ factoryId, contact: contact.id });
    expect(misspelt.status).toBe(400);
    expect(misspelt.body.error).toMatch(/unknown key "contact"/);
  });
});

describe('requests the function refuses', () => {
  test.each([
    [{ operation: 'contacts.delete', factoryId: 'fac_x' }, /operation must be one of contacts.list, contacts.show/],
    [{ operation: 'contacts.list', factoryId: 'acme' }, /factoryId must look like "fac_acme"/],
    [{ operation: 'contacts.list', factoryId: 'fac_x', limit: 0 }, /limit must be a whole number from 1 to 1000/],
    [{ operation: 'contacts.list', factoryId: 'fac_x', updatedSince: 'yesterday' }, /updatedSince must be an ISO 8601 date/],
    [{ operation: 'contacts.list', factoryId: 'fac_x', cursor: 'garbage' }, /cursor is not one this service returned/],
    [{ operation: 'contacts.export', factoryId: 'fac_x', format: 'xlsx' }, /format must be "jsonl" or "csv"/],
    [{ operation: 'contacts.show', factoryId: 'fac_x', contactId: 'ct_0000000000000000', extra: 1 }, /unknown key "extra": contacts.show takes/],
    [[1, 2], /expected a JSON object/],
  ])('%j is 400 with a message saying what to fix', async (request, message) => {
    const { status, body, lines } = await control.call(request);
    expect(status).toBe(400);
    expect(body.error).toMatch(message);
    expect(Object.keys(body)).toEqual(['error']);
    expect(auditLine(lines)).toMatchObject({ status: 400, principal: CONTROL_ROOM_ARN });
  });

  test('a direct Invoke (no function URL, so no caller identity) is refused', async () => {
    const { result, lines } = await control.invoke({ operation: 'contacts.list', factoryId: 'fac_x' });
    expect(result).toEqual({ error: DIRECT_INVOKE_REFUSED });
    expect(auditLine(lines)).toMatchObject({ status: 403, principal: 'unknown (direct invocation)' });
  });

  test('a URL call without an IAM caller, another method, another path or a broken body is refused', async () => {
    const unsigned = await control.call({ operation: 'contacts.list', factoryId: 'fac_x' }, { principal: null });
    expect([unsigned.status, unsigned.body.error]).toEqual([403, expect.stringMatching(/AWS_IAM/)]);
    const get = await control.call({}, { method: 'GET' });
    expect([get.status, get.headers.allow]).toEqual([405, 'POST']);
    expect((await control.call({}, { path: '/contacts' })).status).toBe(404);
    expect((await control.call({}, { raw: '{oops' })).body).toEqual({ error: 'the body is not valid JSON' });
    expect((await control.call({}, { raw: '' })).status).toBe(400);
  });

  test('a base64 body (as function URLs pass binary content types) is read', async () => {
    const { factoryId } = await factory();
    const { status } = await control.call({ operation: 'contacts.list', factoryId }, { base64: true });
    expect(status).toBe(200);
  });
});

describe('the audit line', () => {
  test('one line per operation naming the operation, the factory, the contact and the caller, never a field value', async () => {
    const { factoryId, add } = await factory();
    const contact = await add({ email: uniqueEmail(), title: 'Secret Title Value' });
    const { lines } = await control.call({
      operation: 'contacts.clear',
      factoryId,
      contactId: contact.id,
      fields: ['title'],
      reason: 'Ticket about Secret Person',
    });
    expect(auditLine(lines)).toMatchObject({
      level: 'INFO',
      message: 'control room',
      service: CONTROL_ROOM_SERVICE_NAME,
      operation: 'contacts.clear',
      factoryId,
      contactId: contact.id,
      principal: CONTROL_ROOM_ARN,
      status: 200,
      cleared: ['title'],
      reasonGiven: true,
      lambdaRequestId: 'lambda-request-id',
      requestId: 'url-request-id',
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('Secret Title Value');
    expect(text).not.toContain('Secret Person');
    expect(text).not.toContain(contact.email);
  });

  test.each([
    [{ operation: 'contacts.list' }, {}],
    [{ operation: 'contacts.export', format: 'csv' }, { format: 'csv' }],
    [{ operation: 'companies.list' }, {}],
    [{ operation: 'enrichment.usage' }, {}],
  ])('%j writes one line with its operation, factory and caller', async (request, more) => {
    const { factoryId } = await factory();
    const { lines } = await control.call({ ...request, factoryId });
    expect(auditLine(lines)).toMatchObject({ operation: request.operation, factoryId, principal: CONTROL_ROOM_ARN, status: 200, ...more });
  });

  test("a contact's values never reach the lines of show, list, export or refresh", async () => {
    const { factoryId, add } = await factory();
    const email = uniqueEmail('private-');
    await referencePerson(email, { location: 'Hidden Valley' });
    const contact = await add({ email, name: 'Private Name' });
    const calls = [
      { operation: 'contacts.show', contactId: contact.id },
      { operation: 'contacts.list' },
      { operation: 'contacts.export', format: 'csv' },
      { operation: 'enrichment.refresh', contactId: contact.id },
    ];
    for (const request of calls) {
      const text = JSON.stringify((await control.call({ ...request, factoryId })).lines);
      for (const value of ['Private Name', email, 'Hidden Valley']) expect(text).not.toContain(value);
    }
    expect(await getItem(factoryId, contact.id)).toMatchObject({ location: 'Hidden Valley' });
  });
});

describe('contacts.erase and contacts.export-person', () => {
  test('an erasure through the function: its audit line says an erasure happened, by whom, and names the person by keyed hash; no line of the call or of an export holds the email', async () => {
    const { factoryId, add } = await factory('erase');
    const email = uniqueEmail('erased-');
    const contact = await add({ email, name: 'Erased Person', title: 'CFO' });

    const exported = await control.call({ operation: 'contacts.export-person', factoryId, email: email.toUpperCase() });
    const erased = await control.call({ operation: 'contacts.erase', factoryId, email });
    const refused = await control.call({ operation: 'contacts.erase', factoryId, email: `${email}@` });

    expect(exported.body.contact).toMatchObject({ id: contact.id, email });
    expect(erased.status).toBe(200);
    expect(auditLine(erased.lines)).toMatchObject({
      operation: 'contacts.erase',
      factoryId,
      contactId: contact.id,
      principal: CONTROL_ROOM_ARN,
      erasure: true,
      contact: true,
      personKey: expect.stringMatching(/^person_[0-9a-f]{32}$/),
    });
    expect(auditLine(exported.lines).personKey).toBe(auditLine(erased.lines).personKey);
    expect(refused.status).toBe(400);
    const everything = JSON.stringify([...exported.lines, ...erased.lines, ...refused.lines]).toLowerCase();
    expect(everything).not.toContain(email.split('@')[0]);
  });
});
