import { normalizeDomain } from '../../../../lambda/contacts/domain/normalize-domain';

describe('normalizeDomain', () => {
  test.each([
    ['acme.io', 'acme.io'],
    ['ACME.IO', 'acme.io'],
    ['https://acme.io', 'acme.io'],
    ['http://www.acme.io/', 'acme.io'],
    ['www.acme.io', 'acme.io'],
    ['  https://WWW.Acme.IO/  ', 'acme.io'],
    ['acme.io/', 'acme.io'],
    ['https://acme.io/about?x=1#top', 'acme.io'],
    ['https://acme.io:8443/', 'acme.io'],
    ['//acme.io', 'acme.io'],
    ['acme.io.', 'acme.io'],
    ['sub.acme.co.uk', 'sub.acme.co.uk'],
    ['www2.acme.io', 'www2.acme.io'],
    ['www.com', 'www.com'],
    ['müller.de', 'xn--mller-kva.de'],
    ['MÜNCHEN.de', 'xn--mnchen-3ya.de'],
    ['xn--mnchen-3ya.de', 'xn--mnchen-3ya.de'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeDomain(input)).toBe(expected);
  });

  test.each(['', 'acme', 'not a domain', 'https://', '-acme.io', 'acme-.io', 'acme..io', 'a_b.com', 'http://', 'xn--0.com', 'xn--.io'])(
    'refuses %j',
    (input) => {
      expect(normalizeDomain(input)).toBeUndefined();
    },
  );
});
