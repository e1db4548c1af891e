import { CSV_COLUMNS, csvCell, csvHeader, csvRow, jsonlRow } from '../../lambda/control/export-format';
import { readUrlCall } from '../../lambda/control/function-url';
import { ControlError } from '../../lambda/control/operation';
import { parseControlRequest } from '../../lambda/control/request';
import { controlView } from '../../lambda/control/view';
import type { StoredContact } from '../../lambda/contacts/enrichment/ports';
import { urlEvent } from '../support/control';

const contact = (fields: Partial<StoredContact> = {}): StoredContact => ({
  id: 'ct_0123456789abcdef',
  factoryId: 'fac_u',
  email: 'a@b.co',
  source: 'api',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-02T00:00:00.000Z',
  ...fields,
});

describe('parseControlRequest', () => {
  test('names an operation and applies its defaults', () => {
    expect(parseControlRequest({ operation: 'contacts.list', factoryId: 'fac_a' })).toEqual({ operation: 'contacts.list', factoryId: 'fac_a', limit: 100 });
    expect(parseControlRequest({ operation: 'contacts.export', factoryId: 'fac_a' })).toEqual({
      operation: 'contacts.export',
      factoryId: 'fac_a',
      format: 'jsonl',
      limit: 1000,
    });
  });

  test('reads updatedSince as an instant in the form updatedAt is written', () => {
    expect(parseControlRequest({ operation: 'contacts.list', factoryId: 'fac_a', updatedSince: '2026-11-21' })).toMatchObject({
      updatedSince: '2026-11-21T00:00:00.000Z',
    });
    expect(parseControlRequest({ operation: 'contacts.list', factoryId: 'fac_a', updatedSince: '2026-11-21T10:30:00+02:00' })).toMatchObject({
      updatedSince: '2026-11-21T08:30:00.000Z',
    });
  });

  test('names the company link "company" or "companyId" and drops repeated fields', () => {
    expect(
      parseControlRequest({ operation: 'contacts.clear', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', fields: ['company', 'title', 'companyId'] }),
    ).toMatchObject({
      fields: ['companyId', 'title'],
    });
  });

  test("reads the enrichment function's old shapes: a contactId makes a refresh, its absence a bulk run", () => {
    expect(parseControlRequest({ factoryId: 'fac_a', contactId: 'ct_0123456789abcdef' })).toEqual({
      operation: 'enrichment.refresh',
      factoryId: 'fac_a',
      contactId: 'ct_0123456789abcdef',
    });
    expect(parseControlRequest({ factoryId: 'fac_a', cursor: 'abc' })).toEqual({ operation: 'enrichment.bulk', factoryId: 'fac_a', cursor: 'abc' });
  });

  test.each([
    [null, /expected a JSON object/],
    [{}, /factoryId must be a string/],
    [{ factoryId: 'acme' }, /factoryId must look like/],
    [{ factoryId: 'fac_a', contactId: 'x' }, /contactId must be a contact id/],
    [{ factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', passId: 'not valid!' }, /passId/],
    [{ factoryId: 'fac_a', cursor: 5 }, /cursor must be the string/],
    [{ factoryId: 'fac_a', contact: 'ct_0123456789abcdef' }, /unknown key "contact": a refresh takes/],
    [{ factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', cursor: 'x' }, /unknown key "cursor"/],
    [{ operation: 5, factoryId: 'fac_a' }, /operation must be one of/],
    [{ operation: 'contacts.list', factoryId: 'fac_a', enriched: 'yes' }, /enriched must be true or false/],
    [{ operation: 'contacts.list', factoryId: 'fac_a', limit: 1001 }, /limit must be a whole number from 1 to 1000/],
    [{ operation: 'contacts.list', factoryId: 'fac_a', limit: 2.5 }, /limit must be a whole number/],
    [{ operation: 'contacts.list', factoryId: 'fac_a', updatedSince: '2026-11-21T10:00:00' }, /with a zone/],
    [{ operation: 'contacts.list', factoryId: 'fac_a', updatedSince: '2026-02-31' }, /not a real date|ISO 8601/],
    [{ operation: 'contacts.export', factoryId: 'fac_a', limit: 5001 }, /from 1 to 5000/],
    [{ operation: 'contacts.clear', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', fields: [] }, /at least one field/],
    [{ operation: 'contacts.clear', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', fields: ['source'] }, /field "source" cannot be cleared/],
    [{ operation: 'contacts.clear', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef', fields: ['title'], reason: 'x'.repeat(501) }, /at most 500/],
    [{ operation: 'companies.contacts', factoryId: 'fac_a', companyId: 'acme.io' }, /companyId must be a company id/],
  ])('refuses %j with a message saying what to fix', (event, message) => {
    expect(() => parseControlRequest(event)).toThrow(ControlError);
    expect(() => parseControlRequest(event)).toThrow(message);
  });
});

describe('CSV export', () => {
  test.each([
    ['plain', 'plain'],
    ['a, b', '"a, b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\nlines', '"two\nlines"'],
    ['=HYPERLINK("http://evil","x")', `"'=HYPERLINK(""http://evil"",""x"")"`],
    ['+1 555 0100', "'+1 555 0100"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['', ''],
  ])('csvCell(%j) is %j', (value, cell) => {
    expect(csvCell(value)).toBe(cell);
  });

  test('a row has one cell per column, objects as JSON text, absent values empty, CRLF at the end', () => {
    const view = controlView(
      contact({
        name: 'Ada',
        enriched: true,
        enrichment: { provider: 'P', at: '2026-01-03T00:00:00.000Z', fields: { title: 'CTO' } },
        cleared: { phone: { value: '1', at: '2026-01-04T00:00:00.000Z', by: 'arn' } },
      }),
    );
    expect(csvHeader()).toBe(`${CSV_COLUMNS.join(',')}\r\n`);
    expect(csvRow(view)).toBe(
      'ct_0123456789abcdef,fac_u,a@b.co,Ada,,,,,api,,2026-01-01T00:00:00.000Z,2026-01-02T00:00:00.000Z,true,P,2026-01-03T00:00:00.000Z,' +
        '"{""title"":""CTO""}",,"{""phone"":{""value"":""1"",""at"":""2026-01-04T00:00:00.000Z"",""by"":""arn""}}"\r\n',
    );
  });

  test('a JSON Lines row is the contact as contacts list shows it', () => {
    const view = controlView(contact({ title: 'x' }));
    expect(JSON.parse(jsonlRow(view))).toEqual(view);
    expect(jsonlRow(view).endsWith('\n')).toBe(true);
  });
});

describe('controlView', () => {
  test('is the public view followed by what only the control room sees, in a fixed order', () => {
    const view = controlView(
      contact({
        title: 'T',
        enrichmentCheckedAt: '2026-01-05T00:00:00.000Z',
        cleared: { title: { reason: 'r', by: 'b', at: 'a', value: 'v' }, name: { by: 'b', value: 'n', at: 'a' } },
        creationToken: 'never shown',
      } as Partial<StoredContact>),
    );
    expect(Object.keys(view)).toEqual(['id', 'factoryId', 'email', 'title', 'source', 'createdAt', 'updatedAt', 'enrichmentCheckedAt', 'cleared']);
    expect(JSON.stringify(view.cleared)).toBe('{"name":{"value":"n","at":"a","by":"b"},"title":{"value":"v","at":"a","by":"b","reason":"r"}}');
  });
});

describe('readUrlCall', () => {
  test('takes the caller from the IAM authorizer and the request from the JSON body', () => {
    expect(readUrlCall(urlEvent({ operation: 'contacts.list' }))).toMatchObject({
      ok: true,
      request: { operation: 'contacts.list' },
      principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/operator-session',
    });
  });

  test('refuses a body that is not UTF-8', () => {
    const event = urlEvent({}, { raw: '' });
    event.body = Buffer.from([0x7b, 0xff, 0x7d]).toString('base64');
    event.isBase64Encoded = true;
    expect(readUrlCall(event)).toMatchObject({ ok: false, result: { statusCode: 400 }, reason: 'the body is not UTF-8' });
  });
});
