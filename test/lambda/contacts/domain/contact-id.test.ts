import { createHash } from 'node:crypto';
import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import { isContactId } from '../../../../lambda/kernel/contact-id-digest';
import { stored } from '../../../support/emails';

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('contactId', () => {
  test('is ct_ + the first 16 hex of sha256("<factory>:<stored email>")', () => {
    expect(contactId('fac_1', stored('Ada@Example.com'))).toBe(`ct_${sha('fac_1:ada@example.com').slice(0, 16)}`);
  });

  test('hashes the stored form as given: no second lowercasing of its own', () => {
    // A stored form is lowercase already; the id must not depend on anything but it.
    const address = stored('σοφία.ǆemal@münchen.de');
    expect(contactId('fac_1', address)).toBe(`ct_${sha(`fac_1:${address}`).slice(0, 16)}`);
  });

  test('differs between factories', () => {
    expect(contactId('fac_1', stored('a@b.co'))).not.toBe(contactId('fac_2', stored('a@b.co')));
  });

  test('has the shape isContactId accepts', () => {
    expect(isContactId(contactId('fac_1', stored('a@b.co')))).toBe(true);
  });

  // Contacts are keyed by these ids: any change to how they are computed orphans existing data, so a value is pinned.
  test('keeps its known value', () => {
    expect(contactId('fac_1', stored('Ada@Example.com'))).toBe('ct_fdf4c89a72ce72ee');
  });
});
