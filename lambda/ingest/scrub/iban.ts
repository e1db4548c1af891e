import { marker, type ScrubRule } from './rule';

/**
 * IBANs, compact (`DE89370400440532013000`) or in groups of four
 * (`DE89 3704 0044 0532 0130 00`), in any case (`de89 3704 …` as a form or a
 * log may lower it), whose country is one that issues IBANs and whose check
 * digits hold (ISO 13616: the number mod 97 is 1). Written with small
 * letters it must also have its country's length: a hex id that happens to
 * start like one (`de12…`, a digest) is not taken for an IBAN. Where a
 * country's account number is digits only, a candidate of it with letters
 * after its check digits is not one either, in any case: a file's content hash
 * such as `app-be65a154eb6ebfac.js` has Belgium's length, and one in 97 such
 * hashes passes the checksum.
 */
const IBAN = /(?<![A-Za-z0-9])([A-Za-z]{2})(\d{2})((?:[A-Za-z0-9]{11,30})|(?: [A-Za-z0-9]{4}){2,7}(?: [A-Za-z0-9]{1,4})?)(?![A-Za-z0-9])/g;

/** Countries with IBANs and the length of theirs (the SWIFT IBAN registry), so "ID12…" in a log is not checked as one. */
const LENGTHS: ReadonlyMap<string, number> = new Map(
  (
    'AD24 AE23 AL28 AT20 AZ28 BA20 BE16 BG22 BH22 BI27 BR29 BY28 CH21 CR22 CY28 CZ24 DE22 DJ27 DK18 DO28 EE20 EG29 ' +
    'ES24 FI18 FK18 FO18 FR27 GB22 GE22 GI23 GL18 GR27 GT28 HN28 HR21 HU28 IE22 IL23 IQ23 IS26 IT27 JO30 KW30 KZ20 ' +
    'LB28 LC32 LI21 LT20 LU20 LV21 LY25 MC27 MD24 ME22 MK19 MN20 MR27 MT31 MU30 NI28 NL18 NO15 OM23 PK24 PL28 PS29 ' +
    'PT25 QA29 RO24 RS22 RU33 SA24 SC31 SD18 SE24 SI19 SK24 SM27 SO23 ST25 SV28 TL23 TN24 TR26 UA29 VA22 VG24 XK20 ' +
    'YE30'
  )
    .split(' ')
    .map((entry): [string, number] => [entry.slice(0, 2), Number(entry.slice(2))]),
);

/**
 * Countries whose account number after the check digits is digits only (the SWIFT IBAN registry's BBAN formats,
 * all `n`): a candidate of theirs with a letter there is a digest or a word, not an IBAN.
 */
const DIGITS_ONLY: ReadonlySet<string> = new Set('AE AT BA BE CZ DE DK EE EG ES FI FO GL HR IL IS LT LY ME NO PL PT RS SD SE SI SK TL TN XK'.split(' '));

function digitsOnly(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return false;
  }
  return true;
}

/** ISO 13616's check: the country and check digits moved to the end, letters as 10–35, the number mod 97 is 1. */
export function ibanChecksumHolds(iban: string): boolean {
  const moved = iban.slice(4) + iban.slice(0, 4);
  let rest = 0;
  for (const char of moved) {
    const code = char.charCodeAt(0);
    const value = code >= 65 ? code - 55 : code - 48;
    rest = value >= 10 ? (rest * 100 + value) % 97 : (rest * 10 + value) % 97;
  }
  return rest === 1;
}

/** Whether a candidate (its spaces removed) is an IBAN; `written` as it was sent decides whether its length must be its country's. */
function isIban(compact: string, written: string): boolean {
  const upper = compact.toUpperCase();
  const length = LENGTHS.get(upper.slice(0, 2));
  if (length === undefined || upper.length < 15 || upper.length > 34) return false;
  if (written !== written.toUpperCase() && upper.length !== length) return false;
  if (DIGITS_ONLY.has(upper.slice(0, 2)) && !digitsOnly(upper.slice(4))) return false;
  return ibanChecksumHolds(upper);
}

/**
 * A grouped candidate may have taken a word after the IBAN as its last group
 * (`… GK3M a`): the IBAN is then the candidate without its last group or two.
 */
function replaceIban(whole: string, replaced: () => void): string {
  const groups = whole.split(' ');
  for (let drop = 0; drop === 0 || drop <= Math.min(2, groups.length - 3); drop += 1) {
    const kept = groups.slice(0, groups.length - drop).join(' ');
    if (isIban(kept.replace(/ /g, ''), kept)) {
      replaced();
      return `${marker('iban')}${whole.slice(kept.length)}`;
    }
  }
  return whole;
}

export const ibanRule: ScrubRule = {
  name: 'iban',
  apply: (text, replaced) => (/[A-Za-z]{2}\d{2}/.test(text) ? text.replace(IBAN, (whole) => replaceIban(whole, replaced)) : text),
};
