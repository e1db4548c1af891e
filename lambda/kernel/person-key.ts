import { createHmac } from 'node:crypto';

/**
 * A person's key in one factory (docs/privacy.md#finding-a-persons-data):
 * HMAC-SHA256, keyed with the service's person secret, of the factory and the
 * email trimmed, NFC-normalized and lowercased; 32 hex characters after
 * `person_`. Reports that carry a reporter's email carry this key, so the
 * reports of one email are found through an index without reading the
 * email back, and the key says nothing about the email to whoever lacks the
 * secret (a plain sha256 of an address is guessed from a list of addresses).
 * The audit line of an erasure names the person by it, never by the email.
 */
export const PERSON_KEY_PREFIX = 'person_';

/** A person key's form: how an erasure named by it (after a restore: docs/runbook.md#after-a-restore-erase-again) is checked. */
export const PERSON_KEY_PATTERN = /^person_[0-9a-f]{32}$/;

/** The form of an email every path keys on: a reporter's address is free text, a contact's is normalized already. */
export const personEmailForm = (email: string): string => email.trim().normalize('NFC').toLowerCase();

export function personKey(secret: Uint8Array, factoryId: string, email: string): string {
  return (
    PERSON_KEY_PREFIX +
    createHmac('sha256', secret)
      .update(`${factoryId}\n${personEmailForm(email)}`)
      .digest('hex')
      .slice(0, 32)
  );
}

/**
 * The service's one person secret: made once by whoever asks first (a
 * conditional write), the same for every container, read once per container;
 * never logged and never answered. DynamoDB adapter:
 * lambda/infrastructure/store/keys/dynamo-person-secret.ts; in memory: lambda/infrastructure/memory.
 */
export interface PersonSecret {
  secret(): Promise<Uint8Array>;
}

/** Person keys from the service's secret. */
export class PersonKeys {
  constructor(private readonly source: PersonSecret) {}

  async keyOf(factoryId: string, email: string): Promise<string> {
    return personKey(await this.source.secret(), factoryId, email);
  }
}
