import type { ScrubRule } from '../../lambda/ingest/scrub/rule';

/** One rule applied to `text`: what it left, and how many replacements it counted. */
export function applied(rule: ScrubRule, text: string): { text: string; count: number } {
  let count = 0;
  const out = rule.apply(text, () => {
    count += 1;
  });
  return { text: out, count };
}

/** A Luhn-valid card number of `length` digits starting with `prefix`. */
export function cardNumber(prefix: string, length: number, body: (i: number) => number = (i) => (i * 7 + 3) % 10): string {
  let digits = prefix;
  while (digits.length < length - 1) digits += String(body(digits.length));
  for (let check = 0; check < 10; check += 1) {
    const candidate = `${digits}${check}`;
    let sum = 0;
    for (let i = candidate.length - 1, double = false; i >= 0; i -= 1, double = !double) {
      let d = candidate.charCodeAt(i) - 48;
      if (double) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
      sum += d;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}

/** A valid IBAN for `country` and its domestic part (check digits computed). */
export function iban(country: string, bban: string): string {
  const numeric = `${bban}${country}00`.replace(/[A-Z]/g, (letter) => String(letter.charCodeAt(0) - 55));
  let rest = 0;
  for (const digit of numeric) rest = (rest * 10 + Number(digit)) % 97;
  return `${country}${String(98 - rest).padStart(2, '0')}${bban}`;
}
