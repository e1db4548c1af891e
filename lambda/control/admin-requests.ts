import * as z from 'zod/mini';
import { normalizeOriginList } from '../domain/origins';
import { optionalWholeNumber } from './whole-number';

/**
 * The control room's key and report operations (keys.*, reports.*): their
 * request shapes, merged into the operations of ./request.ts. Kept apart so
 * the contact and enrichment operations stay as they were.
 */

/** Reports per page: at most REPORTS_MAX (BatchGetItem reads 100 at a time). */
export const REPORTS_DEFAULT = 50;
export const REPORTS_MAX = 100;
/** The most requests per minute a key may be given (as `keys create --rate-limit`). */
export const KEY_RATE_LIMIT_MAX = 1_000_000;

const factoryId = z.string({ error: 'factoryId must be a string like "fac_acme"' }).check(
  z.regex(/^fac_[A-Za-z0-9_-]{1,64}$/, { error: 'factoryId must look like "fac_acme"' }),
);
const keyId = z.string({ error: 'keyId must be a string' }).check(
  z.regex(/^key_[0-9a-f]{16}$/, { error: 'keyId must be a key id: key_ + 16 hex characters' }),
);
const reportId = (name: string) =>
  z.string({ error: `${name} must be a string` }).check(
    z.regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { error: `${name} must be a lowercase UUID, as the reports list shows it` }),
  );
const cursor = z.optional(z.string({ error: 'cursor must be the string a previous answer returned' }));
const whole = optionalWholeNumber;

/** A publishable key's origins, normalized as the ingest API matches them (lambda/domain/origins.ts). */
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

export const ADMIN_OPERATIONS = {
  'keys.list': z.strictObject({ operation: z.literal('keys.list'), factoryId }),
  'keys.create': z.strictObject({
    operation: z.literal('keys.create'),
    factoryId,
    type: z.optional(z.enum(['secret', 'publishable'], { error: 'type must be "secret" or "publishable"' })),
    origins,
    rateLimit: whole('rateLimit', KEY_RATE_LIMIT_MAX),
  }),
  'keys.revoke': z.strictObject({ operation: z.literal('keys.revoke'), factoryId, keyId }),
  'reports.events': z.strictObject({
    operation: z.literal('reports.events'),
    factoryId,
    // Any name: a type no event has lists nothing (the ingest API's types: lambda/ingest/payloads.ts, not imported here).
    type: z.optional(
      z.string({ error: 'type must be an event type like "error", "bug_report" or "message"' }).check(
        z.regex(/^[a-z_]{1,32}$/, { error: 'type must be an event type like "error", "bug_report" or "message"' }),
      ),
    ),
    limit: whole('limit', REPORTS_MAX),
    cursor,
  }),
  'reports.feature-requests': z.strictObject({
    operation: z.literal('reports.feature-requests'),
    factoryId,
    limit: whole('limit', REPORTS_MAX),
    cursor,
  }),
  'reports.event': z.strictObject({ operation: z.literal('reports.event'), factoryId, eventId: reportId('eventId') }),
  'reports.feature-request': z.strictObject({ operation: z.literal('reports.feature-request'), factoryId, requestId: reportId('requestId') }),
} as const;

type AdminName = keyof typeof ADMIN_OPERATIONS;
/** A key or report request as parsed (defaults applied where it runs: ./admin-operations.ts). */
export type AdminRequest = { [K in AdminName]: z.output<(typeof ADMIN_OPERATIONS)[K]> }[AdminName];
