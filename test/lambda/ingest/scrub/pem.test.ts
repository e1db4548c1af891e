import { pemRule } from '../../../../lambda/ingest/scrub/pem';
import { applied } from '../../../support/scrub';

const BODY = 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun\nVTLw7onLRnrq0/IzW7yWR7QkrmBL7jTKEn5u+qKhbwKfBstIs+bMY2Zkp18gnTxK';

describe('pem rule', () => {
  test.each([
    [`key:\n-----BEGIN RSA PRIVATE KEY-----\n${BODY}\n-----END RSA PRIVATE KEY-----\nafter`, 'key:\n[Filtered:pem]\nafter'],
    [`-----BEGIN PRIVATE KEY-----\n${BODY}\n-----END PRIVATE KEY-----`, '[Filtered:pem]'],
    [`-----BEGIN OPENSSH PRIVATE KEY-----\n${BODY}\n-----END OPENSSH PRIVATE KEY-----`, '[Filtered:pem]'],
    [`cut: -----BEGIN EC PRIVATE KEY-----\n${BODY}`, 'cut: [Filtered:pem]'],
  ])('replaces a private key from BEGIN to END (or to the end): %#', (text, expected) => {
    expect(applied(pemRule, text)).toEqual({ text: expected, count: 1 });
  });

  test('keeps a certificate and a public key', () => {
    const text = `-----BEGIN CERTIFICATE-----\n${BODY}\n-----END CERTIFICATE-----\n-----BEGIN PUBLIC KEY-----\n${BODY}\n-----END PUBLIC KEY-----`;
    expect(applied(pemRule, text)).toEqual({ text, count: 0 });
  });
});
