import { randomBytes } from 'node:crypto';
import { sha256Hex } from './hash';

export const SECRET_KEY_PREFIX = 'dfsk_';
export const PUBLISHABLE_KEY_PREFIX = 'dfpk_';
export type KeyType = 'secret' | 'publishable';

/** What an issued key looks like: its prefix, then 16 to 128 base64url characters. */
export const SECRET_SHAPE = /^dfsk_[A-Za-z0-9_-]{16,128}$/;
export const PUBLISHABLE_SHAPE = /^dfpk_[A-Za-z0-9_-]{16,128}$/;

/** What the Authorization header holds, decided without any I/O. */
export type Credential = { kind: 'missing' } | { kind: 'not-bearer' } | { kind: 'publishable' } | { kind: 'malformed' } | { kind: 'secret'; secret: string };

/** Reads `Authorization: Bearer <key>`; keys anywhere else are not read (docs/contacts-api.md#errors). */
export function readCredential(authorization: string | undefined): Credential {
  if (authorization === undefined || authorization.trim() === '') return { kind: 'missing' };
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!match) return { kind: 'not-bearer' };
  const key = match[1] as string;
  if (key.startsWith(PUBLISHABLE_KEY_PREFIX)) return { kind: 'publishable' };
  if (!SECRET_SHAPE.test(key)) return { kind: 'malformed' };
  return { kind: 'secret', secret: key };
}

/**
 * The stored form of a key. Secrets are 256-bit random, so a plain sha256 is
 * enough (no salt or slow hash needed): the table never holds the secret.
 */
export function hashSecret(secret: string): string {
  return sha256Hex(secret);
}

export interface NewKey {
  secret: string;
  keyHash: string;
  keyId: string;
  /** Last four characters, so an operator can tell keys apart in a list. */
  hint: string;
}

/** The shape of a key's non-secret id, as generateKey makes it: `key_` and 16 lowercase hex characters. */
export const KEY_ID_PATTERN = /^key_[0-9a-f]{16}$/;

/** A fresh key of the given type: `dfsk_`/`dfpk_` + 43 base64url characters. */
export function generateKey(type: KeyType): NewKey {
  const prefix = type === 'secret' ? SECRET_KEY_PREFIX : PUBLISHABLE_KEY_PREFIX;
  const secret = prefix + randomBytes(32).toString('base64url');
  return {
    secret,
    keyHash: hashSecret(secret),
    keyId: `key_${randomBytes(8).toString('hex')}`,
    hint: secret.slice(-4),
  };
}

/**
 * Anything shaped like one of our keys, wherever it appears in a text. No
 * word boundary before it: a key glued to a letter, digit or `_` ("xdfsk_…",
 * a path segment "_dfsk_…") is a key all the same, and used to go out whole.
 */
const KEY_IN_TEXT = /(df[sp]k_)[A-Za-z0-9_-]+/g;

/**
 * Masks every key-shaped token in a text, keeping its prefix: for messages and
 * logs that may quote what a caller sent (a path, a JSON parse error), so no
 * answer or log line ever carries a whole key.
 */
export function redactKeys(text: string): string {
  return text.replace(KEY_IN_TEXT, '$1…');
}
