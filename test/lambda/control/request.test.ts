import { ControlError } from '../../../lambda/control/operation';
import { OPERATION_NAMES } from '../../../lambda/control/operations';
import { parseControlRequest, readControlRequest } from '../../../lambda/control/request';

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

describe('readControlRequest', () => {
  test('names every operation when the one asked for is none of them', () => {
    expect(() => readControlRequest({ operation: 'contacts.delete', factoryId: 'fac_a' })).toThrow(`operation must be one of ${OPERATION_NAMES.join(', ')}`);
  });

  test('a request it reads runs with the audit ids its fields name', () => {
    const read = readControlRequest({ operation: 'contacts.show', factoryId: 'fac_a', contactId: 'ct_0123456789abcdef' });
    expect(read.audit).toEqual({ contactId: 'ct_0123456789abcdef' });
    expect(typeof read.run).toBe('function');
  });
});
