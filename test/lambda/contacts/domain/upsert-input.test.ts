import * as z from 'zod/mini';
import { upsertBody } from '../../../../lambda/contacts/domain/upsert-input';

const read = (body: unknown) => z.safeParse(upsertBody, body);
const problem = (body: unknown) => {
  const result = read(body);
  return result.success ? undefined : result.error.issues.map((issue) => issue.message).join('; ');
};

describe('the upsert body', () => {
  test('normalizes the email and the company domain, and keeps the free text cleaned', () => {
    expect(read({ email: ' Ada@Example.com ', companyDomain: 'https://www.Acme.io/', name: '  Ada\nLovelace ', source: 'ads' }).data).toEqual({
      email: 'ada@example.com',
      companyDomain: 'acme.io',
      name: 'Ada Lovelace',
      source: 'ads',
    });
  });

  test('null, absent and blank text count as omitted: the API cannot clear a field', () => {
    expect(read({ email: 'a@b.co', name: null, title: '   ', companyDomain: '', source: null }).data).toEqual({ email: 'a@b.co' });
  });

  test('drops fields it does not know, so newer clients work', () => {
    expect(read({ email: 'a@b.co', favouriteColour: 'teal' }).data).toEqual({ email: 'a@b.co' });
  });

  test('a missing or malformed email is refused in words a caller can act on', () => {
    expect(problem({})).toBe('email is required');
    expect(problem({ email: 42 })).toBe('email must be a string');
    expect(problem({ email: 'not an address' })).toMatch(/email must contain exactly one "@"/);
  });

  test('a bad domain, source or text field is named, with the value clipped', () => {
    expect(problem({ email: 'a@b.co', companyDomain: 'not a domain' })).toMatch(/^companyDomain must be a domain like example\.com/);
    expect(problem({ email: 'a@b.co', source: ' api' })).toBe('source must be one of api, external_crm, ads, manual (got " api")');
    expect(problem({ email: 'a@b.co', source: 'x'.repeat(500) })?.length).toBeLessThan(200);
    expect(problem({ email: 'a@b.co', title: 7 })).toBe('title must be a string');
  });

  test('a body that is not an object says what one looks like', () => {
    expect(problem([1])).toBe('Request body must be a JSON object, like {"email": "ada@example.com"}');
  });

  test('free text is clipped to its limit, never refused for length', () => {
    const long = read({ email: 'a@b.co', name: 'n'.repeat(10_000) });
    expect(long.success).toBe(true);
    expect((long.data?.name ?? '').length).toBeLessThan(10_000);
  });
});
