import { trimEndOf } from '../../kernel/text-ends';
import { sentryProjectId } from '../../kernel/sentry-project';
import { PUBLISHABLE_KEY_PREFIX, PUBLISHABLE_SHAPE } from '../../kernel/api-key';

/**
 * A publishable key as a Sentry DSN carries it (docs/sentry-sdks.md#the-dsn).
 * Sentry's JavaScript SDKs only take a DSN whose public key is word
 * characters (`\w+`), and half of our keys hold a `-` (base64url). So the DSN
 * carries the key's 32 random bytes as 64 hex digits: reversible without a
 * lookup, so a Sentry request costs the same one key call as an own-SDK one.
 * Pure: no I/O.
 */

export { sentryProjectId };

const SENTRY_PUBLIC_KEY = /^[0-9a-f]{64}$/;

/** The DSN's public key for a publishable key issued by generateKey (dfpk_ + 43 base64url characters). */
export function sentryPublicKey(publishableKey: string): string {
  return Buffer.from(publishableKey.slice(PUBLISHABLE_KEY_PREFIX.length), 'base64url').toString('hex');
}

/**
 * The key a Sentry request names: the DSN's 64 hex digits turned back into
 * the publishable key, or a key sent as itself (dfpk_…, dfsk_…) unchanged,
 * for the key check to judge. Anything else is returned as it is (malformed).
 */
export function keyOfSentryPublicKey(value: string): string {
  if (!SENTRY_PUBLIC_KEY.test(value)) return value;
  const key = PUBLISHABLE_KEY_PREFIX + Buffer.from(value, 'hex').toString('base64url');
  return PUBLISHABLE_SHAPE.test(key) ? key : value;
}

/** The path under which the Sentry protocol is served; the SDKs add `api/<project id>/envelope/` to the DSN's path. */
export const SENTRY_PATH = '/ingest/sentry';

/** The DSN for a publishable key: `<scheme>://<public key>@<host>[:port]/ingest/sentry/<project id>`, from the API's base URL. */
export function dsnFor(apiBaseUrl: string, publishableKey: string, keyId: string): string {
  const base = new URL(apiBaseUrl);
  const prefix = trimEndOf(base.pathname, '/');
  return `${base.protocol}//${sentryPublicKey(publishableKey)}@${base.host}${prefix}${SENTRY_PATH}/${sentryProjectId(keyId)}`;
}
