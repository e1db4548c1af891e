import type { MiddlewareObj } from '@middy/core';
import { hashSecret, readCredential, type Credential } from '../../domain/api-key';
import type { KeyAuthorizer } from '../../domain/ports';
import { apiError } from '../responses';
import type { ApiContext, ApiEvent } from '../types';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="contacts"' };

/** One message for every key that is not a usable secret key: a publishable key is refused exactly like an unknown one (spec 5.4). */
const UNKNOWN_KEY = 'Unknown API key: send a secret key (dfsk_…) issued for your factory, copied whole.';

const REJECTIONS: Record<Exclude<Credential['kind'], 'secret'>, string> = {
  missing: 'Missing API key: send "Authorization: Bearer dfsk_…" (keys in query parameters are not read).',
  'not-bearer': 'The Authorization header must be "Bearer <secret key>", like "Bearer dfsk_…".',
  publishable: UNKNOWN_KEY,
  malformed: UNKNOWN_KEY,
};

/**
 * Authenticates the secret key and counts the request against its per-minute
 * limit, in one conditional DynamoDB write (see DynamoKeyAuthorizer):
 * 401 for a missing, unknown, revoked or wrong-type key, 429 with
 * `Retry-After` over the limit. On success the tenant, taken from the key
 * only, is `context.caller`.
 */
export function authenticate(keys: KeyAuthorizer, now: () => number = Date.now): MiddlewareObj<ApiEvent, unknown, Error, ApiContext> {
  return {
    name: 'authenticate',
    before: async ({ event, context }) => {
      if ((event.multiValueHeaders?.authorization?.length ?? 0) > 1) {
        throw apiError(401, 'Send one Authorization header, not several.', CHALLENGE);
      }
      const credential = readCredential(event.headers?.authorization);
      if (credential.kind !== 'secret') throw apiError(401, REJECTIONS[credential.kind], CHALLENGE);

      const decision = await keys.authorize(hashSecret(credential.secret), now());
      switch (decision.outcome) {
        case 'allowed':
          context.caller = { factoryId: decision.factoryId, keyId: decision.keyId };
          return;
        case 'unknown':
          throw apiError(401, UNKNOWN_KEY, CHALLENGE);
        case 'revoked':
          throw apiError(401, 'This API key has been revoked: ask your platform team for a new one.', CHALLENGE);
        case 'throttled':
          throw apiError(
            429,
            `Rate limit of ${decision.limitPerMinute} requests per minute exceeded for this key: retry after ${decision.retryAfterSeconds} s.`,
            { 'Retry-After': String(decision.retryAfterSeconds) },
          );
      }
    },
  };
}
