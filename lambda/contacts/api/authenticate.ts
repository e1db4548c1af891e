import type { MiddlewareObj } from '@middy/core';
import { hashSecret, readCredential, type Credential } from '../../kernel/api-key';
import type { AuthDecision, KeyAuthorizer } from '../domain/ports';
import { apiError } from '../../infrastructure/http/responses';
import type { Caller } from '../../infrastructure/http/request-state';
import type { ApiContext, ApiEvent } from '../../infrastructure/http/types';
import type { ContactsSlot } from './contacts-slot';

const CHALLENGE = { 'WWW-Authenticate': 'Bearer realm="contacts"' };

/** One message for every key that is not a usable secret key: a publishable key is refused exactly like an unknown one (docs/keys.md#two-kinds-of-key). */
const UNKNOWN_KEY = 'Unknown API key: send a secret key (dfsk_…) issued for your factory, copied whole.';

const REJECTIONS: Record<Exclude<Credential['kind'], 'secret'>, string> = {
  missing: 'Missing API key: send "Authorization: Bearer dfsk_…" (keys in query parameters are not read).',
  'not-bearer': 'The Authorization header must be "Bearer <secret key>", like "Bearer dfsk_…".',
  publishable: UNKNOWN_KEY,
  malformed: UNKNOWN_KEY,
};

/** The caller a decision allows, or the error to answer instead. */
function admit(decision: AuthDecision): Caller {
  switch (decision.outcome) {
    case 'allowed':
      return { factoryId: decision.factoryId, keyId: decision.keyId };
    case 'unknown':
      throw apiError(401, UNKNOWN_KEY, CHALLENGE);
    case 'revoked':
      throw apiError(401, 'This API key has been revoked: ask your platform team for a new one.', CHALLENGE);
    case 'throttled':
      throw apiError(429, `Rate limit of ${decision.rate.limit} requests per minute exceeded for this key: retry after ${decision.retryAfterSeconds} s.`, {
        'Retry-After': String(decision.retryAfterSeconds),
      });
  }
}

/**
 * Authenticates the secret key and counts the request against its per-minute
 * limit, in one conditional DynamoDB write (see DynamoKeyAuthorizer):
 * 401 for a missing, unknown, revoked or wrong-type key, 429 with
 * `Retry-After` over the limit. On success the tenant, taken from the key
 * only, is the request state's `caller`; allowed or throttled, where the key
 * stands is its slot's `rate` (the rate-limit headers).
 *
 * A GET with a key this container has seen allowed does not wait for the
 * check: see speculative-read.ts. Writes always wait.
 */
export function authenticate(keys: KeyAuthorizer, now: () => number = Date.now): MiddlewareObj<ApiEvent, unknown, Error, ApiContext<ContactsSlot>> {
  return {
    name: 'authenticate',
    before: async ({ event, context: { state } }) => {
      if ((event.multiValueHeaders?.authorization?.length ?? 0) > 1) {
        throw apiError(401, 'Send one Authorization header, not several.', CHALLENGE);
      }
      const credential = readCredential(event.headers?.authorization);
      if (credential.kind !== 'secret') throw apiError(401, REJECTIONS[credential.kind], CHALLENGE);

      const keyHash = hashSecret(credential.secret);
      const known = event.httpMethod === 'GET' ? keys.knownCaller(keyHash) : undefined;
      const confirmation = keys.authorize(keyHash, now()).then((decision) => {
        // Set before admit() throws a 429: its answer carries the headers too.
        if (decision.outcome === 'allowed' || decision.outcome === 'throttled') state.slot.rate = decision.rate;
        return admit(decision);
      });
      if (!known) {
        state.caller = await confirmation;
        return;
      }
      state.caller = known;
      state.slot.confirmation = confirmation;
      // Awaited by answerWhenConfirmed; this only keeps Node from reporting a
      // rejection as unhandled while the read is still running.
      confirmation.catch(() => undefined);
    },
  };
}
