import type { EnrichmentSource, FoundFields, LookupSubject } from './source';

/** Words of shared mailboxes: an address with any of them names a role, not a person. */
const ROLE_WORDS = new Set([
  'account',
  'accounts',
  'admin',
  'billing',
  'bounce',
  'care',
  'contact',
  'customer',
  'delivery',
  'dev',
  'do',
  'donotreply',
  'enquiries',
  'finance',
  'hello',
  'help',
  'helpdesk',
  'hr',
  'info',
  'invoice',
  'it',
  'jobs',
  'legal',
  'mail',
  'mailer',
  'marketing',
  'media',
  'news',
  'newsletter',
  'no',
  'noreply',
  'not',
  'notifications',
  'office',
  'ops',
  'orders',
  'postmaster',
  'press',
  'privacy',
  'reply',
  'root',
  'sales',
  'security',
  'service',
  'services',
  'shop',
  'support',
  'system',
  'team',
  'test',
  'webmaster',
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
  const local = email.normalize('NFC').toLowerCase().split('@')[0]?.split('+')[0] ?? '';
  const parts = local.split(/[._]/);
  if (parts.length < 2 || parts.length > 3) return undefined;
  if (parts.some((part) => ROLE_WORDS.has(part)) || new Set(parts).size < parts.length) return undefined;
  if (!parts.every((part) => /^\p{L}{2,}(-\p{L}{2,})*$/u.test(part))) return undefined;
  return parts.map(capitalize).join(' ');
}

/** Offline source: derives a name from the address itself. */
export class EmailNameHeuristic implements EnrichmentSource {
  readonly name = 'email-name-heuristic';
  readonly derived = true;

  async lookup({ email }: LookupSubject): Promise<FoundFields> {
    const name = nameFromEmail(email);
    return name ? { name } : {};
  }
}
