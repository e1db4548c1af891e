import { planPass } from '../../lambda/contacts/enrichment/plan-pass';
import { mapWithConcurrency } from '../../lambda/contacts/enrichment/run-bulk';
import { lookup } from '../../lambda/contacts/enrichment/run-pass';
import { nameFromEmail } from '../../lambda/contacts/enrichment/sources/email-name-heuristic';
import { parseReferenceLine } from '../../lambda/contacts/enrichment/sources/reference-dataset';
import type { Contact } from '../../lambda/contacts/domain/contact';

const contact = (fields: Partial<Contact> = {}): Contact => ({
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_u',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  ...fields,
});
const AT = '2026-11-21T12:00:00.000Z';

describe('planPass', () => {
  const looked = (found: Record<string, string>) => ({ found, lookedUp: Object.keys(found).length > 0 });

  test('nothing found: a miss, nothing to write', () => {
    expect(planPass(contact(), looked({}), 'P', AT)).toMatchObject({ kind: 'miss', billed: false, enrichment: undefined });
  });

  test('nothing found on a contact enriched before: a free miss, recorded in enrichment', () => {
    expect(planPass(contact({ enriched: true }), looked({}), 'P', AT)).toMatchObject({
      kind: 'miss',
      billed: false,
      enrichment: { provider: 'P', at: AT, fields: {} },
      markEnriched: false,
    });
  });

  test('only derived values, filling nothing: a miss', () => {
    const plan = planPass(contact({ name: 'Set' }), { found: { name: 'Derived' }, lookedUp: false }, 'P', AT);
    expect(plan).toMatchObject({ kind: 'miss', billed: false, enrichment: undefined });
  });

  test('fills only the empty fields and records all found', () => {
    const plan = planPass(contact({ name: 'Set' }), looked({ name: 'Found', title: 'T' }), 'P', AT);
    expect(plan).toEqual({
      kind: 'fill',
      billed: true,
      found: { name: 'Found', title: 'T' },
      ignored: [],
      fill: { title: 'T' },
      expectSet: { name: true, title: false },
      expectCleared: { title: null },
      enrichment: { provider: 'P', at: AT, fields: { name: 'Found', title: 'T' } },
      markEnriched: true,
    });
  });

  test('all found fields set on a contact never enriched: complete, no enrichment written', () => {
    const plan = planPass(contact({ name: 'Set' }), looked({ name: 'Found' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', billed: true, fill: {}, markEnriched: false, enrichment: undefined });
  });

  test('all found fields set on a contact enriched before: complete, enrichment updated', () => {
    const plan = planPass(contact({ name: 'Set', enriched: true }), looked({ name: 'Found' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', markEnriched: false, enrichment: { at: AT, fields: { name: 'Found' } } });
  });
});

describe('planPass and values the control room cleared', () => {
  const cleared = { title: { value: 'Wrong', at: '2026-11-20T00:00:00.000Z', by: 'arn:aws:iam::1:role/ControlRoom' } };
  const data = (found: Record<string, string>) => ({ found, lookedUp: true, fromData: Object.keys(found) as ('name' | 'title' | 'phone' | 'location')[] });

  test('a found value the control room cleared from the field is set aside: not filled, not recorded, not billed on its own', () => {
    const plan = planPass({ ...contact({ enriched: true }), cleared }, data({ title: 'Wrong' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'miss', billed: false, ignored: ['title'], fill: {}, found: {} });
    expect(plan.enrichment?.fields).toEqual({});
  });

  test('other finds still fill and bill; the cleared one is left out of enrichment.fields', () => {
    const plan = planPass({ ...contact(), cleared }, data({ title: 'Wrong', location: 'Rome' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'fill', billed: true, ignored: ['title'], fill: { location: 'Rome' } });
    expect(plan.enrichment?.fields).toEqual({ location: 'Rome' });
    expect(plan.expectCleared).toEqual({ location: null });
  });

  test('another value fills the cleared field, and the write requires the clear it saw', () => {
    const plan = planPass({ ...contact(), cleared }, data({ title: 'Right' }), 'P', AT);
    expect(plan).toMatchObject({ kind: 'fill', fill: { title: 'Right' }, ignored: [], expectCleared: { title: cleared.title.at } });
  });

  test('a cleared value found only by the derived heuristic beside a data find keeps the pass a data find', () => {
    const plan = planPass({ ...contact({ name: 'Set' }), cleared }, { found: { title: 'Wrong', name: 'Found' }, lookedUp: true, fromData: ['name'] }, 'P', AT);
    expect(plan).toMatchObject({ kind: 'complete', billed: true, ignored: ['title'] });
  });
});

describe('sources', () => {
  test.each([
    ['ada.lovelace@example.com', 'Ada Lovelace'],
    ['grace_hopper@navy.mil', 'Grace Hopper'],
    ['mary-jane.watson@example.com', 'Mary-Jane Watson'],
    ['jean.luc.picard@example.com', 'Jean Luc Picard'],
    ['ada.lovelace+crm@example.com', 'Ada Lovelace'],
    ['zoë.müller@example.de', 'Zoë Müller'],
  ])('nameFromEmail(%s) = %s', (email, name) => {
    expect(nameFromEmail(email)).toBe(name);
  });

  test.each([
    'ada@example.com',
    'info@example.com',
    'no.reply@example.com',
    'no_reply@example.com',
    'do.not.reply@example.com',
    'customer.service@example.com',
    'sales.team@example.com',
    'admin.admin@example.com',
    'mail.delivery@example.com',
    'j.doe@example.com',
    'user.1234@example.com',
    'a.b.c.d@example.com',
  ])('nameFromEmail(%s) finds nothing', (email) => {
    expect(nameFromEmail(email)).toBeUndefined();
  });

  test('nameFromEmail reads decomposed accents as composed ones', () => {
    expect(nameFromEmail('zoe\u0301.mu\u0308ller@example.de')).toBe('Zoé Müller');
  });

  test('lookup merges sources in order, first value per field', async () => {
    const findings = await lookup(
      [
        { name: 'first', lookup: async () => ({ name: 'From first' }) },
        { name: 'second', lookup: async () => ({ name: 'From second', title: 'T' }) },
      ],
      'a@b.co',
    );
    expect(findings).toEqual({ found: { name: 'From first', title: 'T' }, lookedUp: true, fromData: ['name', 'title'] });
  });

  test('lookup tells whether a data source, not only a derived one, found something', async () => {
    const derived = { name: 'heuristic', derived: true, lookup: async () => ({ name: 'Derived' }) };
    const empty = { name: 'dataset', lookup: async () => ({}) };
    expect(await lookup([empty, derived], 'a@b.co')).toEqual({ found: { name: 'Derived' }, lookedUp: false, fromData: [] });
  });

  test.each([
    [
      '{"email":"Ada@Example.com","name":" Ada ","title":"CTO","phone":"1","location":"London","extra":1}',
      { ok: true, record: { email: 'ada@example.com', name: 'Ada', title: 'CTO', phone: '1', location: 'London' } },
    ],
    ['{"email":"b@c.co","name":""}', { ok: true, record: { email: 'b@c.co' } }],
    ['   ', { ok: 'blank' }],
    ['{oops', { ok: false, problem: 'not valid JSON' }],
    ['[1,2]', { ok: false, problem: 'not a JSON object' }],
    ['{"name":"x"}', { ok: false, problem: 'no "email" string' }],
    ['{"email":"not an email"}', { ok: false, problem: expect.stringContaining('email') }],
  ])('parseReferenceLine(%s)', (line, expected) => {
    expect(parseReferenceLine(line)).toEqual(expected);
  });

  test('parseReferenceLine skips a byte order mark, refuses replacement characters, strips control characters', () => {
    expect(parseReferenceLine('\ufeff{"email":"a@b.co"}')).toEqual({ ok: true, record: { email: 'a@b.co' } });
    expect(parseReferenceLine('{"email":"a@b.co","name":"Bad \ufffd byte"}')).toEqual({ ok: false, problem: 'not valid UTF-8' });
    const dirty = JSON.stringify({ email: 'a@b.co', name: 'Ada\u0000 \u202eLovelace', title: '\u0007' });
    expect(parseReferenceLine(dirty)).toEqual({ ok: true, record: { email: 'a@b.co', name: 'Ada Lovelace' } });
  });

  test("parseReferenceLine follows the API's free-text rule: a lone surrogate refuses the line, naming the field", () => {
    expect(parseReferenceLine('{"email":"a@b.co","title":"CTO \\ud800"}')).toEqual({
      ok: false,
      problem: expect.stringMatching(/^title is not well-formed Unicode: it has a lone surrogate \(U\+D800\)/),
    });
  });

  test("parseReferenceLine follows the API's free-text rule: line breaks become spaces, marks such as U+200F stay", () => {
    const line = JSON.stringify({ email: 'a@b.co', name: 'Ada\r\nLovelace', location: '\u05ea\u05dc \u05d0\u05d1\u05d9\u05d1\u200f' });
    expect(parseReferenceLine(line)).toEqual({
      ok: true,
      record: { email: 'a@b.co', name: 'Ada Lovelace', location: '\u05ea\u05dc \u05d0\u05d1\u05d9\u05d1\u200f' },
    });
  });

  test("parseReferenceLine keys a person by the email's stored form and refuses what the API refuses", () => {
    expect(parseReferenceLine('{"email":"\u212Aa@example.com"}')).toEqual({ ok: false, problem: expect.stringMatching(/NFC/) });
    expect(parseReferenceLine('{"email":"a..b@example.com"}')).toEqual({ ok: false, problem: expect.stringMatching(/two dots/) });
  });

  test('parseReferenceLine clips long values', () => {
    const result = parseReferenceLine(JSON.stringify({ email: 'a@b.co', name: 'n'.repeat(300), phone: '9'.repeat(100) }));
    expect(result).toMatchObject({ ok: true, record: { name: 'n'.repeat(200), phone: '9'.repeat(64) } });
  });
});

describe('mapWithConcurrency', () => {
  test('keeps order and never runs more than the limit at once', async () => {
    let running = 0;
    let peak = 0;
    const out = await mapWithConcurrency([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      running += 1;
      peak = Math.max(peak, running);
      await new Promise((resolve) => setTimeout(resolve, 5 * (8 - n)));
      running -= 1;
      return n * 10;
    });
    expect(out).toEqual([10, 20, 30, 40, 50, 60, 70]);
    expect(peak).toBe(3);
  });
});
