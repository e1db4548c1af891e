import { marker, type ScrubRule } from './rule';

/**
 * AWS credentials: access key ids (`AKIA…` for a user's, `ASIA…` for a
 * session's, and the other documented prefixes: 20 capitals and digits), and
 * secret access keys, 40 characters of base64 (letters of both cases and
 * digits, `/` and `+`) standing alone: not part of a longer run, not a path
 * (no `//`), and holding a capital, a small letter and a digit, which a
 * SHA-1 in hex (40 small hex digits) or a word never does.
 */
const KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g;
// Bounded by what no token alphabet holds: a run that goes on in base64url or a JWT's dots is not one.
const SECRET = /(?<![A-Za-z0-9/+._~-])[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=_~-]|\.[A-Za-z0-9])/g;

const isBase64Char = (code: number): boolean =>
  (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 43 /* + */ || code === 47; /* / */

/**
 * Whether a text has 40 base64 characters in a row, which a secret key needs: most texts (a stack, a URL) have
 * none, and this loop reads them in about half the time SECRET's lookbehind at every character takes.
 */
function hasSecretLengthRun(text: string): boolean {
  let run = 0;
  for (let at = 0; at < text.length; at += 1) {
    run = isBase64Char(text.charCodeAt(at)) ? run + 1 : 0;
    if (run === 40) return true;
  }
  return false;
}

const looksLikeSecretKey = (run: string): boolean => /[A-Z]/.test(run) && /[a-z]/.test(run) && /[0-9]/.test(run) && !run.includes('//');

export const awsKeyRule: ScrubRule = {
  name: 'aws-key',
  apply: (text, replaced) => {
    if (text.length < 20) return text;
    const out = text.replace(KEY_ID, () => {
      replaced();
      return marker('aws-key');
    });
    if (!hasSecretLengthRun(out)) return out;
    return out.replace(SECRET, (run) => {
      if (!looksLikeSecretKey(run)) return run;
      replaced();
      return marker('aws-key');
    });
  },
};
