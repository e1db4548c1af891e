import * as z from 'zod/mini';
import {
  between,
  companyId,
  contactId,
  cursor,
  described,
  email,
  factoryId,
  FIELD_META,
  issueId,
  keyId,
  limit,
  reportId,
  upTo,
} from '../../../lambda/control/fields';

const problem = (schema: z.ZodMiniType, value: unknown) => {
  const result = z.safeParse(schema, value);
  return result.success ? undefined : result.error.issues[0]?.message;
};

describe('the fields the operations share, each with its one message', () => {
  test('ids take exactly their shape, and say which', () => {
    expect(problem(factoryId, 'fac_acme')).toBeUndefined();
    expect(problem(factoryId, 'acme')).toBe('factoryId must look like "fac_acme"');
    expect(problem(factoryId, 7)).toBe('factoryId must be a string like "fac_acme"');
    expect(problem(contactId, 'ct_0123456789abcdef')).toBeUndefined();
    expect(problem(contactId, 'ct_x')).toBe('contactId must be a contact id: ct_ + 16 hex characters');
    expect(problem(companyId, 'acme.io')).toBe('companyId must be a company id: co_ + 16 hex characters');
    expect(problem(keyId, 'dfsk_secret')).toBe('keyId must be a key id: key_ + 16 hex characters');
    expect(problem(issueId, 'iss_1')).toMatch(/^issueId must be an issue id: iss_ \+ 20 hex characters/);
    expect(problem(reportId('eventId'), 'NOT-A-UUID')).toBe('eventId must be a lowercase UUID, as the reports list shows it');
  });

  test('a whole number in its range, with one message for every way of missing it', () => {
    const spike = between('spikeMultiple', 2, 1000);
    for (const wrong of [1, 1001, 2.5, '3']) expect(problem(spike, wrong)).toBe('spikeMultiple must be a whole number from 2 to 1000');
    expect(problem(spike, undefined)).toBeUndefined();
    expect(problem(upTo('rateLimit', 10), 0)).toBe('rateLimit must be a whole number from 1 to 10');
    expect(problem(limit(100), 100)).toBeUndefined();
  });

  test('a cursor and an email are optional strings', () => {
    expect(problem(cursor, undefined)).toBeUndefined();
    expect(problem(cursor, 5)).toBe('cursor must be the string a previous answer returned');
    expect(problem(email, 42)).toBe('email must be a string');
  });

  test('what a field says of itself (its flag, placeholder, whether the audit names it) is kept beside its schema', () => {
    expect(FIELD_META.get(factoryId)).toEqual({ flag: 'factory', placeholder: 'fac_id' });
    expect(FIELD_META.get(contactId)).toMatchObject({ flag: 'contact', audited: true });
    expect(FIELD_META.get(keyId)?.audited).toBeUndefined();
    const servers = described(z.boolean(), { switch: true });
    expect(FIELD_META.get(servers)).toEqual({ switch: true });
  });
});
