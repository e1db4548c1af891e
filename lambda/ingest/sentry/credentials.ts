import { PUBLISHABLE_SHAPE, SECRET_SHAPE } from '../../kernel/api-key';
import type { IngestCredential } from '../credentials';
import { keyOfSentryPublicKey } from './dsn';

/**
 * The key of a Sentry request (docs/sentry-sdks.md#authentication), from
 * any of the three places the SDKs put it: the `X-Sentry-Auth` header
 * (`Sentry sentry_key=…, sentry_version=7`), the `sentry_key` query
 * parameter, and the `dsn` of the envelope's header. Each is turned back into
 * the publishable key (dsn.ts); places that name different keys are refused
 * (conflicting), a header sent twice too (repeated). A secret key in any
 * place wins, to be marked exposed. Pure: no I/O.
 */
export interface SentryKeySources {
  /** Every X-Sentry-Auth header value. */
  auth: readonly string[];
  /** Every sentry_key query value. */
  query: readonly string[];
  /** The envelope header's `dsn`, as sent (any type). */
  dsn?: unknown;
}

/** `sentry_key` of an X-Sentry-Auth value: "Sentry sentry_key=abc, sentry_version=7, sentry_client=…". */
function keyOfAuthHeader(value: string): string | undefined {
  const fields = value.replace(/^\s*sentry\s+/i, '');
  for (const part of fields.split(',')) {
    const [name, ...rest] = part.split('=');
    if (name?.trim().toLowerCase() === 'sentry_key') return rest.join('=').trim();
  }
  return undefined;
}

/** The public key of a DSN string (the URL's user name). */
function keyOfDsn(dsn: unknown): string | undefined {
  if (typeof dsn !== 'string') return undefined;
  try {
    const user = new URL(dsn).username;
    return user === '' ? undefined : decodeURIComponent(user);
  } catch {
    return undefined;
  }
}

export function readSentryCredential(sources: SentryKeySources): IngestCredential {
  const headers = sources.auth.filter((value) => value.trim() !== '');
  const queries = sources.query.map((value) => value.trim()).filter((value) => value !== '');
  if (headers.length > 1 || queries.length > 1) return { kind: 'repeated' };
  const named = [headers[0] === undefined ? undefined : (keyOfAuthHeader(headers[0]) ?? ''), queries[0], keyOfDsn(sources.dsn)]
    .filter((key): key is string => key !== undefined)
    .map(keyOfSentryPublicKey);
  const secret = named.find((key) => SECRET_SHAPE.test(key));
  if (secret) return { kind: 'secret', secret };
  const distinct = [...new Set(named)];
  if (distinct.length > 1) return { kind: 'conflicting' };
  const [key] = distinct;
  if (key === undefined) return { kind: 'missing' };
  return PUBLISHABLE_SHAPE.test(key) ? { kind: 'publishable', key } : { kind: 'malformed' };
}
