/**
 * Where the key stands against its rate limit, as every answer after the key
 * check says it (docs/contacts-api.md#rate-limit-headers): the fields of the IETF
 * HTTPAPI draft, `RateLimit-Policy: "per-key";q=30000;w=60` and
 * `RateLimit: "per-key";r=2999;t=1`.
 */
export interface RateLimitStatus {
  /** Requests the key may make per window (`q`). */
  limit: number;
  /** The window, in seconds (`w`): 60, a per-minute limit. */
  windowSeconds: number;
  /** Requests the key may make now without being refused (`r`). */
  remaining: number;
  /** Seconds within which no more than `remaining` become available (`t`). */
  resetSeconds: number;
}

/** The integer parameters of the first item of a structured-field list: `"name";a=1;b=2` → {a: 1, b: 2}. */
function parameters(value: string): Map<string, number> | undefined {
  const [item = ''] = value.split(',');
  const [name = '', ...params] = item.split(';').map((part) => part.trim());
  if (!/^"[^"]*"$|^[A-Za-z*][\w.:/*-]*$/.test(name)) return undefined;
  const found = new Map<string, number>();
  for (const param of params) {
    const match = /^([a-z*][a-z0-9_.*-]*)=(\d{1,15})$/.exec(param);
    if (match) found.set(match[1] as string, Number(match[2]));
  }
  return found;
}

/** Both headers read together; undefined when either is absent or says too little (answers before the key check carry none). */
export function parseRateLimit(policy: string | null, rateLimit: string | null): RateLimitStatus | undefined {
  if (policy === null || rateLimit === null) return undefined;
  const quota = parameters(policy);
  const now = parameters(rateLimit);
  const limit = quota?.get('q');
  const windowSeconds = quota?.get('w');
  const remaining = now?.get('r');
  const resetSeconds = now?.get('t');
  if (limit === undefined || windowSeconds === undefined || remaining === undefined || resetSeconds === undefined) return undefined;
  return { limit, windowSeconds, remaining, resetSeconds };
}
