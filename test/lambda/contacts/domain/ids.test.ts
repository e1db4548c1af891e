import { createHash } from 'node:crypto';
import { companyId } from '../../../../lambda/contacts/domain/company-id';
import { contactId } from '../../../../lambda/contacts/domain/contact-id';
import { isContactId } from '../../../../lambda/kernel/contact-id-digest';
import { sha256Hex } from '../../../../lambda/kernel/hash';
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

  test('isContactId accepts exactly that shape', () => {
    expect(isContactId(contactId('fac_1', stored('a@b.co')))).toBe(true);
    for (const bad of ['ct_', 'ct_0123456789ABCDEF', 'co_0123456789abcdef', 'ct_0123456789abcdef0']) {
      expect(isContactId(bad)).toBe(false);
    }
  });
});

describe('companyId', () => {
  test('is co_ + the first 16 hex of sha256("<factory>:<domain>")', () => {
    expect(companyId('fac_1', 'acme.io')).toBe(`co_${sha('fac_1:acme.io').slice(0, 16)}`);
  });
});

// Stored items are keyed by these ids and keys by these hashes: any change
// to how they are computed orphans existing data, so the values are pinned.
describe('ids and hashes already stored never change', () => {
  test('sha256Hex is the standard SHA-256 of the UTF-8 text', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('dfsk_é')).toBe('ad1b37c3815f74fb4c6a0b95b848b2974a1be0b59b896e4af16b23f0facabc07');
  });

  test('a contact id and a company id keep their known values', () => {
    expect(contactId('fac_1', stored('Ada@Example.com'))).toBe('ct_fdf4c89a72ce72ee');
    expect(companyId('fac_1', 'example.com')).toBe('co_dd8a38c2882a72a6');
  });
});
