import * as z from 'zod/mini';
import type { KeyType } from '../kernel/api-key';
import { normalizeOriginList } from '../kernel/origins';
import { described, factoryId, keyId, upTo } from './fields';
import { ControlError, operation } from './operation';
import type { ControlDependencies } from './ports';
import { CANARY_KEY_REFUSED, isCanaryFactory } from '../kernel/canary';
import type { KeyView } from './ports';

/** The most requests per minute a key may be given (as `keys create --rate-limit`). */
export const KEY_RATE_LIMIT_MAX = 1_000_000;

/** A publishable key's origins, normalized as the ingest API matches them (lambda/kernel/origins.ts). */
const origins = z.optional(
  z.pipe(
    z.array(z.string({ error: 'origins must be website origins like "https://app.example.com"' }), { error: 'origins must be a list of website origins' }),
    z.transform((list, ctx) => {
      const checked = normalizeOriginList(list);
      if (checked.ok) return checked.origins;
      ctx.issues.push({ code: 'custom', message: `origins: ${checked.problem}`, input: list });
      return z.NEVER;
    }),
  ),
);

/** Days of client reports shown beside a publishable key's rate limit. */
export const DISCARDED_DAYS = 7;

/**
 * Each publishable key with what its SDKs said they discarded over the last DISCARDED_DAYS UTC days, by reason and
 * category (docs/release-health.md#what-the-sdks-dropped), when they said anything: beside the rate limit, what a
 * limit cost.
 */
async function withDiscarded(deps: ControlDependencies, keys: KeyView[], now: Date): Promise<KeyView[]> {
  const publishable = keys.filter((key) => key.type === 'publishable').map((key) => key.keyId);
  if (!deps.clientReports || publishable.length === 0) return keys;
  const days = Array.from({ length: DISCARDED_DAYS }, (_, i) => new Date(now.getTime() - i * 86_400_000).toISOString().slice(0, 10));
  const found = new Map((await deps.clientReports.discardedByKeys(publishable, days)).map((entry) => [entry.keyId, entry]));
  return keys.map((key) => {
    const entry = found.get(key.keyId);
    return entry && entry.discarded.length > 0 ? { ...key, discarded: { days: entry.days, counts: entry.discarded } } : key;
  });
}

function keyAdmin(deps: ControlDependencies) {
  if (!deps.keys) throw new ControlError(500, 'key operations are not configured on this control room (no keys table)');
  return deps.keys;
}

/** Keys: issued, listed and revoked by an operator, audited (docs/keys.md). The audit names key ids, never a secret. */
export const KEY_OPERATIONS = {
  'keys.list': operation({
    request: z.strictObject({ factoryId }),
    run: async ({ factoryId }, { deps, now }) => {
      const keys = await keyAdmin(deps).admin.list(factoryId);
      return { body: { factoryId, keys: await withDiscarded(deps, keys, now) }, audit: { count: keys.length } };
    },
  }),

  'keys.create': operation({
    request: z.strictObject({
      factoryId,
      type: z.optional(z.enum(['secret', 'publishable'], { error: 'type must be "secret" or "publishable"' })),
      origins,
      rateLimit: upTo('rateLimit', KEY_RATE_LIMIT_MAX),
      // A publishable key that requests without an Origin (a customer's servers) may use too (docs/sentry-sdks.md).
      servers: z.optional(described(z.boolean({ error: 'servers must be true or false' }), { switch: true })),
    }),
    defaults: (request) => {
      if (isCanaryFactory(request.factoryId)) throw new ControlError(400, CANARY_KEY_REFUSED);
      const type: KeyType = request.type ?? 'secret';
      const given = request.origins ?? [];
      if (type === 'secret' && given.length > 0) throw new ControlError(400, 'origins are only for publishable keys');
      if (type === 'publishable' && given.length === 0) throw new ControlError(400, 'a publishable key needs at least one origin (the website it is used on)');
      if (type === 'secret' && request.servers) throw new ControlError(400, 'servers is only for publishable keys (a secret key is for servers already)');
      return { factoryId: request.factoryId, type, origins: given, rateLimit: request.rateLimit, servers: request.servers === true };
    },
    run: async (request, { deps, now }) => {
      const { factoryId, type } = request;
      const { admin, defaultRateLimit } = keyAdmin(deps);
      const rateLimit = request.rateLimit ?? (type === 'secret' ? defaultRateLimit : undefined);
      const publishable = type === 'publishable' ? { origins: request.origins, ...(request.servers ? { servers: true } : {}) } : {};
      const created = await admin.create({ factoryId, type, rateLimit, ...publishable, now });
      // The secret goes to the caller once and never into the audit line.
      return {
        body: { ...created },
        audit: { keyId: created.keyId, type, rateLimit: created.rateLimit, origins: created.origins?.length, ...(request.servers ? { servers: true } : {}) },
      };
    },
  }),

  'keys.revoke': operation({
    request: z.strictObject({ factoryId, keyId }),
    run: async ({ factoryId, keyId }, { deps, now }) => {
      const revoked = await keyAdmin(deps).admin.revoke(keyId, now, factoryId);
      if (!revoked) throw new ControlError(404, `no key ${keyId} in ${factoryId}`);
      return { body: { ...revoked }, audit: { keyId } };
    },
  }),
};

// What these operations answer (200), as the control room's pages read it: ./answers.ts names them per operation.
export interface KeyListAnswer {
  factoryId: string;
  keys: KeyView[];
}
/** The new key, its secret (`key`) in this answer only. */
export type KeyCreateAnswer = KeyView & { key: string };
export type KeyRevokeAnswer = KeyView;
