import { marker, type ScrubRule } from './rule';

/**
 * IBANs, compact (`DE89370400440532013000`) or in groups of four
 * (`DE89 3704 0044 0532 0130 00`), whose country is one that issues IBANs
 * and whose check digits hold (ISO 13616: the number mod 97 is 1). Capitals
 * only, as banks print them: a lowercase hex id is never taken for one.
 */
const IBAN = /(?<![A-Za-z0-9])([A-Z]{2})(\d{2})((?:[A-Z0-9]{11,30})|(?: [A-Z0-9]{4}){2,7}(?: [A-Z0-9]{1,4})?)(?![A-Za-z0-9])/g;

/** Countries with IBANs (the SWIFT registry), so "ID12…" in a log is not checked as one. */
const COUNTRIES = new Set(
  (
    'AD AE AL AT AZ BA BE BG BH BI BR BY CH CR CY CZ DE DJ DK DO EE EG ES FI FK FO FR GB GE GI GL GR GT HN HR HU IE IL IQ IS IT ' +
    'JO KW KZ LB LC LI LT LU LV LY MC MD ME MK MN MR MT MU NI NL NO OM PK PL PS PT QA RO RS RU SA SC SD SE SI SK SM SO ST SV ' +
    'TL TN TR UA VA VG XK YE'
  ).split(' '),
);

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

export const ibanRule: ScrubRule = {
  name: 'iban',
  apply: (text, replaced) =>
    /[A-Z]{2}\d{2}/.test(text)
      ? text.replace(IBAN, (whole, country: string, check: string, rest: string) => {
          const compact = `${country}${check}${rest.replace(/ /g, '')}`;
          if (!COUNTRIES.has(country) || compact.length < 15 || compact.length > 34 || !ibanChecksumHolds(compact)) return whole;
          replaced();
          return marker('iban');
        })
      : text,
};
