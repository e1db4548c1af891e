import { charCount } from './clip';
import { EMAIL_MAX_CHARS } from './limits';

export type EmailCheck = { ok: true; email: string } | { ok: false; problem: string };

const FORBIDDEN = /[\s\u0000-\u001f\u007f<>(),;:\\"[\]]/u;
const HOST = /^[^.]+(\.[^.]+)+$/;

/**
 * Validates an email address and returns its canonical form (trimmed,
 * lowercased). Identity input is rejected, never truncated (spec 2.3, 8).
 */
export function normalizeEmail(raw: string): EmailCheck {
  const email = raw.trim();
  if (email === '') return { ok: false, problem: 'email is required' };
  const length = charCount(email);
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
    return { ok: false, problem: 'email must not contain spaces, control characters or any of <>(),;:\\"[]' };
  }
  if (!HOST.test(domain)) {
    return { ok: false, problem: 'email needs a domain after the "@", like example.com' };
  }
  return { ok: true, email: email.toLowerCase() };
}
