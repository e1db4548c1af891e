import { marker, type ScrubRule } from './rule';

/**
 * PEM private keys (RSA, EC, OpenSSH, PKCS#8, encrypted): from the BEGIN
 * line to its END line, or to the end of the text when the END was never
 * sent (a key pasted into a message that the page cut). Certificates and
 * public keys are public and stay.
 */
const PEM = /-----BEGIN ((?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?)-----[\s\S]*?(?:-----END \1-----|$(?![\s\S]))/g;

export const pemRule: ScrubRule = {
  name: 'pem',
  apply: (text, replaced) =>
    text.includes('-----BEGIN ')
      ? text.replace(PEM, () => {
          replaced();
          return marker('pem');
        })
      : text,
};
