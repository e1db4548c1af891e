import { charCount } from './clip';
import { EMAIL_MAX_CHARS } from './limits';

export type EmailCheck = { ok: true; email: string } | { ok: false; problem: string };

// Spaces and separators, control and invisible format characters (zero-width,
// direction overrides), lone surrogates, and the specials of RFC 5322.
const FORBIDDEN = /[\s\p{Z}\p{Cc}\p{Cf}\p{Cs}<>(),;:\\"[\]]/u;
const HOST = /^[^.]+(\.[^.]+)+$/;

/**
 * Validates an email address and returns its canonical form (trimmed,
 * lowercased). Identity input is rejected, never truncated (spec 2.3, 8).
 */
export function normalizeEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, problem: 'email is required' };
  // The stored form is lowercased, which can lengthen a few letters ("İ"): both must fit.
  const length = Math.max(charCount(email), charCount(email.toLowerCase()));
  if (length > EMAIL_MAX_CHARS) {
    return { ok: false, problem: `email must be at most ${EMAIL_MAX_CHARS} characters (got ${length})` };
  }
  const parts = email.split('@');
  if (parts.length !== 2) {
    return { ok: false, problem: `email must contain exactly one "@" (found ${parts.length - 1})` };
  }
  const [local, domain] = parts as [string, string];
  if (local === '') return { ok: false, problem: 'email needs a name before the "@"' };
  if (FORBIDDEN.test(email)) {
    return { ok: false, problem: 'email must not contain spaces, control or invisible characters, or any of <>(),;:\\"[]' };
  }
  if (!HOST.test(domain)) {
    return { ok: false, problem: 'email needs a domain after the "@", like example.com' };
  }
  return { ok: true, email: email.toLowerCase() };
}
