import { marker, type ScrubRule } from './rule';

/**
 * Payment card numbers: 13 to 19 digits, together or in groups separated by
 * single spaces, dashes or dots, that start like a card network's numbers
 * (Visa 4, Mastercard 2 and 5, Amex and Diners 3, Discover, UnionPay and
 * Maestro 6) and pass the Luhn check, also right after an underscore
 * (`card_4111…`, a field name glued to its value). A longer run of groups
 * ("4111 1111 1111 1111 2") gives up its card and keeps the rest. Not taken:
 * a digit run inside a word or a hex id, a UUID's groups, dotted numbers
 * whose groups are short (a version, a date, a decimal), and numbers that
 * fail either check (an epoch in milliseconds starts with 1).
 */
const CANDIDATE = /(?<![A-Za-z0-9]|[0-9A-Fa-f]-)\d(?:[ .-]?\d){12,40}(?![A-Za-z0-9]|-[0-9A-Fa-f])/g;
const UUID_SHAPE = /^\d{8}-\d{4}-\d{4}-\d{4}-\d{12}$/;
const NETWORK = /^(?:4|5[1-5]|2[2-7]|3[0-9]|6)/;

/** The Luhn check of a string of digits. */
export function luhnHolds(digits: string): boolean {
  let sum = 0;
  for (let i = digits.length - 1, double = false; i >= 0; i -= 1, double = !double) {
    let digit = digits.charCodeAt(i) - 48;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

const isCard = (digits: string): boolean => digits.length >= 13 && digits.length <= 19 && NETWORK.test(digits) && luhnHolds(digits);

/** A run of digit groups with each card in it replaced: the whole run, or the longest card from each group on. */
function scrubRun(run: string, replaced: () => void): string {
  if (UUID_SHAPE.test(run)) return run;
  // Dots group a card as spaces do (4111.1111.1111.1111), but they also join versions, dates and decimals: a dot
  // next to a group of one or two digits breaks the run there, and each piece is read on its own.
  if (run.includes('.') && /(?:^|[ .-])\d{1,2}\.|\.\d{1,2}(?:$|[ .-])/.test(run)) {
    return run
      .split('.')
      .map((piece) => scrubRun(piece, replaced))
      .join('.');
  }
  if (isCard(run.replace(/[ .-]/g, ''))) {
    replaced();
    return marker('card');
  }
  const parts = run.split(/([ .-])/);
  const groups = parts.filter((_, i) => i % 2 === 0);
  if (groups.length < 2) return run;
  const out: string[] = [];
  let i = 0;
  while (i < groups.length) {
    // No card is written starting with a lone digit ("1 1 1 1 …" would otherwise try each as a start).
    if ((groups[i] as string).length === 1 && i + 1 < groups.length) {
      out.push(groups[i] as string, parts[2 * i + 1] as string);
      i += 1;
      continue;
    }
    let found = -1;
    let digits = '';
    for (let j = i; j < groups.length && digits.length + (groups[j] as string).length <= 19; j += 1) {
      digits += groups[j] as string;
      if (isCard(digits)) found = j;
    }
    if (found >= 0) {
      replaced();
      out.push(marker('card'));
      if (found + 1 < groups.length) out.push(parts[2 * found + 1] as string);
      i = found + 1;
    } else {
      out.push(groups[i] as string);
      if (i + 1 < groups.length) out.push(parts[2 * i + 1] as string);
      i += 1;
    }
  }
  return out.join('');
}

export const cardRule: ScrubRule = {
  name: 'card',
  apply: (text, replaced) => (/\d{4}/.test(text) || /\d[ .-]\d/.test(text) ? text.replace(CANDIDATE, (run) => scrubRun(run, replaced)) : text),
};
