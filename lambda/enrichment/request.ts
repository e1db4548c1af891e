import * as z from 'zod/mini';

const factoryId = z.string({ error: 'factoryId must be a string like "fac_acme"' }).check(
  z.regex(/^fac_[A-Za-z0-9_-]{1,64}$/, { error: 'factoryId must look like "fac_acme"' }),
);

/** A single-record refresh: `{factoryId, contactId, passId?}`. Strict: a misspelt key is an error, never a bulk run. */
const refresh = z.strictObject({
  factoryId,
  contactId: z.string({ error: 'contactId must be a string' }).check(
    z.regex(/^ct_[0-9a-f]{16}$/, { error: 'contactId must be a contact id: ct_ + 16 hex characters' }),
  ),
  passId: z.optional(
    z.string().check(z.regex(/^[A-Za-z0-9-]{1,36}$/, { error: 'passId must be 1-36 letters, digits or dashes (a UUID fits)' })),
  ),
});

/** A bulk run: `{factoryId, cursor?}`. */
const bulk = z.strictObject({
  factoryId,
  cursor: z.optional(z.string({ error: 'cursor must be the string a previous run returned' })),
});

export type EnrichmentRequest = ({ kind: 'refresh' } & z.output<typeof refresh>) | ({ kind: 'bulk' } & z.output<typeof bulk>);

export class InvalidRequestError extends Error {
  override readonly name = 'InvalidRequestError';
}

/** Reads what the control room sent: a refresh when it names a contact, else a bulk run. */
export function parseRequest(event: unknown): EnrichmentRequest {
  const isObject = typeof event === 'object' && event !== null && !Array.isArray(event);
  if (!isObject) throw new InvalidRequestError('expected {"factoryId", "contactId"} (refresh) or {"factoryId", "cursor"?} (bulk)');
  const wantsRefresh = 'contactId' in event;
  const result = (wantsRefresh ? refresh : bulk).safeParse(event);
  if (!result.success) {
    const problems = result.error.issues.map((issue) =>
      issue.code === 'unrecognized_keys'
        ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.map((key) => JSON.stringify(key)).join(', ')}: a refresh takes {factoryId, contactId, passId?}, a bulk run {factoryId, cursor?}`
        : issue.message,
    );
    throw new InvalidRequestError(problems.join('; '));
  }
  return wantsRefresh
    ? { kind: 'refresh', ...(result.data as z.output<typeof refresh>) }
    : { kind: 'bulk', ...(result.data as z.output<typeof bulk>) };
}
