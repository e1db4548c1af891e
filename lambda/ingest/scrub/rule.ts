/**
 * What every scrubbing rule shares (docs/privacy.md#scrubbing): its name, the
 * marker a match becomes, and how a rule is applied. A rule is a pure text
 * transformation: no I/O, no clock, nothing kept between calls.
 */

/** The rules, in the order the scrubber applies them (scrubber.ts). */
export const SCRUB_RULE_NAMES = ['pem', 'jwt', 'service-key', 'token', 'bearer', 'url-password', 'aws-key', 'email', 'iban', 'card', 'ip', 'secret'] as const;
export type ScrubRuleName = (typeof SCRUB_RULE_NAMES)[number];

/** Replacements made, per rule; a rule that made none is absent. */
export type ScrubCounts = Partial<Record<ScrubRuleName, number>>;

export interface ScrubRule {
  name: ScrubRuleName;
  /**
   * The text with every match replaced (by `marker(name)`, or a text holding
   * it); `replaced` is called once per replacement.
   */
  apply(text: string, replaced: () => void): string;
}

/** What a match becomes: `[Filtered:card]`. Names the rule, so a reader knows what was there without seeing it. */
export const marker = (name: ScrubRuleName): string => `[Filtered:${name}]`;

/** Any rule's marker: text a later rule must leave as it is. */
export const MARKER = /\[Filtered:[a-z-]+\]/;

/**
 * Whether a word after "Bearer" or after `token:` is a credential rather
 * than English: a digit, a capital after the first letter, a symbol of the
 * token alphabets, or 24 characters or more. "Bearer authentication" stays;
 * "Bearer abc123…" does not.
 */
export function looksLikeCredential(word: string): boolean {
  return /\d|.[A-Z]|[._~+/=-]/.test(word) || word.length >= 24;
}
