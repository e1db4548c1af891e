import type { EnrichmentSource, FoundFields, LookupSubject } from './source';

/** Shared mailboxes: their local part names a role, not a person. */
const ROLE_MAILBOXES = new Set([
  'admin', 'billing', 'contact', 'hello', 'help', 'hr', 'info', 'jobs', 'marketing', 'mail',
  'no.reply', 'noreply', 'office', 'press', 'sales', 'security', 'support', 'team',
]);

const capitalize = (word: string) =>
  word
    .split('-')
    .map((part) => part.charAt(0).toLocaleUpperCase('en') + part.slice(1))
    .join('-');

/**
 * A display name from a `first.last@` style address ("ada.lovelace@…" →
 * "Ada Lovelace"; `_` works like `.`; "+tags" are ignored). Only names of
 * two or three letter-only parts, never role mailboxes like sales@.
 */
export function nameFromEmail(email: string): string | undefined {
  const local = email.toLowerCase().split('@')[0]?.split('+')[0] ?? '';
  if (ROLE_MAILBOXES.has(local)) return undefined;
  const parts = local.split(/[._]/);
  if (parts.length < 2 || parts.length > 3) return undefined;
  if (!parts.every((part) => /^\p{L}{2,}(-\p{L}{2,})*$/u.test(part))) return undefined;
  return parts.map(capitalize).join(' ');
}

/** Offline source: derives a name from the address itself. */
export class EmailNameHeuristic implements EnrichmentSource {
  readonly name = 'email-name-heuristic';

  async lookup({ email }: LookupSubject): Promise<FoundFields> {
    const name = nameFromEmail(email);
    return name ? { name } : {};
  }
}
