import { createHmac } from 'node:crypto';
import { personEmailForm } from '../../kernel/person-key';

/**
 * A person erased from the vendor's reference dataset, as the reference
 * table remembers them (docs/privacy.md#the-vendors-record): never the
 * email, but `suppressed#` and 32 hex characters of an HMAC-SHA256 of it,
 * keyed with the service's suppression secret. The reference table is
 * shared by every factory and keyed by email alone, so this key names no
 * factory and its secret is the deployment's one: an erasure in any factory
 * suppresses the person for every loader, whichever factory asks next.
 * Without the secret the key cannot be tested against a list of addresses.
 */
export const SUPPRESSION_PREFIX = 'suppressed#';

export function suppressionKey(secret: Uint8Array, email: string): string {
  return SUPPRESSION_PREFIX + createHmac('sha256', secret).update(personEmailForm(email)).digest('hex').slice(0, 32);
}

/**
 * The service's one suppression secret, kept as the person secret is (made
 * once by whoever asks first, read once per container, never logged or
 * answered), and apart from it: a person key and a suppression key of the
 * same email share nothing. DynamoDB adapter:
 * lambda/infrastructure/store/keys/dynamo-person-secret.ts; in memory, any random value.
 */
export interface SuppressionSecret {
  secret(): Promise<Uint8Array>;
}

/** Suppression keys from the service's secret. */
export class SuppressionKeys {
  constructor(private readonly source: SuppressionSecret) {}

  async keyOf(email: string): Promise<string> {
    return suppressionKey(await this.source.secret(), email);
  }
}
