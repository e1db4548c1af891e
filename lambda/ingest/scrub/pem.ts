import { marker, type ScrubRule } from './rule';

/**
 * PEM private keys (RSA, EC, OpenSSH, PKCS#8, encrypted): from the BEGIN
 * line to its END line, or to the end of the text when the END was never
 * sent (a key pasted into a message that the page cut). Certificates and
 * public keys are public and stay.
 *
 * The BEGIN line is found by a pattern of bounded label; its END by a plain
 * search: one pass over the text, whatever it holds (a lazy pattern with a
 * back-reference to the label said the same in more time).
 */
const BEGIN = /-----BEGIN ([A-Z0-9 ]{1,60})-----/g;
const PRIVATE_LABEL = /^(?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?$/;

function replaceKeys(text: string, replaced: () => void): string {
  const begin = BEGIN;
  // The one pattern object, its place set for this text (the scan is synchronous: nothing else runs meanwhile).
  begin.lastIndex = 0;
  let out = '';
  let copied = 0;
  for (let found = begin.exec(text); found !== null; found = begin.exec(text)) {
    const label = found[1] as string;
    if (!PRIVATE_LABEL.test(label)) continue;
    const endLine = `-----END ${label}-----`;
    const end = text.indexOf(endLine, begin.lastIndex);
    const stop = end === -1 ? text.length : end + endLine.length;
    replaced();
    out += `${text.slice(copied, found.index)}${marker('pem')}`;
    copied = stop;
    begin.lastIndex = stop;
  }
  return copied === 0 ? text : out + text.slice(copied);
}

export const pemRule: ScrubRule = {
  name: 'pem',
  apply: (text, replaced) => (text.includes('-----BEGIN ') ? replaceKeys(text, replaced) : text),
};
