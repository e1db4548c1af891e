import { sha256Hex } from './hash';

/**
 * The project id of a publishable key's Sentry DSN: 15 decimal digits
 * derived from the key id (Sentry's SDKs want digits; Python parses it as an
 * integer). Stable for the key's life, the same on every container; written
 * on the key's item when it is issued (lambda/infrastructure/store/keys/key-admin.ts).
 */
export function sentryProjectId(keyId: string): string {
  return (BigInt(`0x${sha256Hex(`sentry-project:${keyId}`).slice(0, 13)}`) % 10n ** 15n).toString().padStart(15, '1');
}
