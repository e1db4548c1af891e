import { awsKeyRule } from './aws-key';
import { bearerRule } from './bearer';
import { cardRule } from './card';
import { emailRule } from './email';
import { ibanRule } from './iban';
import { ipRule } from './ip';
import { jwtRule } from './jwt';
import { pemRule } from './pem';
import { marker, type ScrubCounts, type ScrubRule } from './rule';
import { isSensitiveKey, secretValueRule } from './secret-value';
import { serviceKeyRule } from './service-key';
import { tokenRule } from './token';
import { urlPasswordRule } from './url-password';

/**
 * The scrubbing of everything the ingest API stores from a browser
 * (docs/privacy.md#scrubbing). The most specific rules first, so that a
 * later, broader one meets their markers, not the secret: a PEM block before
 * anything reads its base64, a JWT, a service key or a provider's token
 * before "Bearer" takes it, a URL's password before the email rule reads
 * `user:pw@host`, and the key=value rule last, leaving values already
 * replaced alone.
 */
export const SCRUB_RULES: readonly ScrubRule[] = [
  pemRule,
  jwtRule,
  serviceKeyRule,
  tokenRule,
  bearerRule,
  urlPasswordRule,
  awsKeyRule,
  emailRule,
  ibanRule,
  cardRule,
  ipRule,
  secretValueRule,
];

/** Applies every rule to `text`, adding what each replaced to `counts`. */
export function scrubText(text: string, counts: ScrubCounts): string {
  let out = text;
  for (const rule of SCRUB_RULES) {
    out = rule.apply(out, () => {
      counts[rule.name] = (counts[rule.name] ?? 0) + 1;
    });
  }
  return out;
}

/**
 * One report's scrubbing: every free-text field goes through `text`, every
 * tag through `tag`; `counts` is what was replaced, per rule, for the
 * stored report (`scrubbed`) and the metrics.
 */
export class Scrubber {
  readonly counts: ScrubCounts = {};

  text(value: string): string {
    return scrubText(value, this.counts);
  }

  /** The e-mail addresses of a text replaced, nothing else: a reporter's name that holds someone's address. */
  emailsIn(value: string): string {
    return emailRule.apply(value, () => {
      this.counts.email = (this.counts.email ?? 0) + 1;
    });
  }

  /** A tag's value: replaced whole when its name is a credential's (`{"authToken": "…"}`), else scrubbed as text. */
  tagValue(name: string, value: string): string {
    if (value.trim() !== '' && isSensitiveKey(name)) {
      this.counts.secret = (this.counts.secret ?? 0) + 1;
      return marker('secret');
    }
    return this.text(value);
  }

  /** The counts, or undefined when nothing was replaced (the stored report then has no `scrubbed`). */
  get replaced(): ScrubCounts | undefined {
    return Object.keys(this.counts).length === 0 ? undefined : { ...this.counts };
  }
}
