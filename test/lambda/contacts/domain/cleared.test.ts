import { clearableField, CLEARABLE_FIELDS, wasCleared } from '../../../../lambda/contacts/domain/cleared';

describe('what the control room may clear', () => {
  test('each clearable field by its own name, and the company link by "company" too', () => {
    for (const field of CLEARABLE_FIELDS) expect(clearableField(field)).toBe(field);
    expect(clearableField('company')).toBe('companyId');
  });

  test('no other field: the email, the id, the source and times are not clearable', () => {
    for (const name of ['email', 'id', 'source', 'createdAt', 'enrichment', 'Name', '']) expect(clearableField(name)).toBeUndefined();
  });
});

describe('a value the control room cleared', () => {
  const cleared = { title: { value: 'Admiral', at: '2026-11-21T00:00:00.000Z', by: 'arn:aws:iam::1:user/ops' } };

  test('is the one value enrichment must not bring back to that field', () => {
    expect(wasCleared(cleared, 'title', 'Admiral')).toBe(true);
  });

  test('another value, another field or no record at all is not', () => {
    expect(wasCleared(cleared, 'title', 'Rear Admiral')).toBe(false);
    expect(wasCleared(cleared, 'name', 'Admiral')).toBe(false);
    expect(wasCleared(undefined, 'title', 'Admiral')).toBe(false);
  });
});
