import { contactIdFromDigest, contactIdInput, CONTACT_ID_PREFIX, isContactId } from '../../../lambda/kernel/contact-id-digest';
import { stored } from '../../support/emails';

describe("the contact id's rule (hashing aside)", () => {
  test('hashes "<factoryId>:<stored email>", the email as given (no second lowercasing)', () => {
    expect(contactIdInput('fac_1', stored('ada@example.com'))).toBe('fac_1:ada@example.com');
    const address = stored('σοφία.ǆemal@münchen.de');
    expect(contactIdInput('fac_1', address)).toBe(`fac_1:${address}`);
  });

  test('cuts the id from the first 16 hex characters of the digest, after ct_', () => {
    expect(contactIdFromDigest('0123456789abcdef0123456789abcdef')).toBe('ct_0123456789abcdef');
    expect(contactIdFromDigest('fdf4c89a72ce72ee').startsWith(CONTACT_ID_PREFIX)).toBe(true);
  });

  test('isContactId accepts exactly ct_ and 16 lowercase hex characters', () => {
    expect(isContactId('ct_0123456789abcdef')).toBe(true);
    for (const bad of ['ct_', 'ct_0123456789ABCDEF', 'co_0123456789abcdef', 'ct_0123456789abcdef0', ' ct_0123456789abcdef', 'ct_0123456789abcdeg']) {
      expect(isContactId(bad)).toBe(false);
    }
  });
});
