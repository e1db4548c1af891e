/**
 * A generated request, as a caller sends it: the fuzz drives the handler with
 * it in-process (as an API Gateway proxy event) and over the local HTTP
 * adapter (as raw bytes). The oracle judges the answer from this alone.
 */
export interface FuzzRequest {
  method: string;
  /** The request target: a path with an optional query string, as sent (encoded or not). */
  target: string;
  /** Header fields in order, repeats allowed. Values never hold CR, LF or NUL (no header injection). */
  headers: [string, string][];
  body: Buffer;
  /** What the generator built the body from, when it was a JSON document it knows the verdict on. */
  intent?: BodyIntent;
}

/**
 * A JSON body and what docs/contacts-api.md#upsert-a-contact--post-apiv1contacts says of it. The verdict holds only while
 * the body is exactly `text` (a leading byte order mark aside): a mutated
 * body is judged without it.
 */
export interface BodyIntent {
  text: string;
  /** `valid`: an upsert docs/contacts-api.md#upsert-a-contact--post-apiv1contacts accepts (200/201); `invalid`: one it refuses with 422. */
  verdict: 'valid' | 'invalid';
  /** For a valid upsert: the stored form of its email (trimmed, lowercased). */
  email?: string;
  /** Fields no caller may set (id, factoryId, …) as the body sent them. */
  forbidden?: Record<string, unknown>;
}

/** Fields the server sets; no body field may set them (mass assignment). */
export const FORBIDDEN_FIELDS = ['id', 'factoryId', 'companyId', 'createdAt', 'updatedAt', 'enriched', 'enrichment'] as const;

/** The values of the header fields named `name` (any case), in order. */
export function headerValues(request: Pick<FuzzRequest, 'headers'>, name: string): string[] {
  const wanted = name.toLowerCase();
  return request.headers.filter(([field]) => field.toLowerCase() === wanted).map(([, value]) => value);
}

const preview = (text: string, max = 120) => (text.length <= max ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, max))}… (${text.length} chars)`);

/** A short, readable account of a request for failure reports (huge values are cut). */
export function describeRequest(request: FuzzRequest): string {
  const lines = [`${request.method} ${preview(request.target)}`];
  for (const [name, value] of request.headers) lines.push(`  ${name}: ${preview(value)}`);
  if (request.body.length > 0) {
    lines.push(`  body (${request.body.length} bytes): ${preview(request.body.toString('utf8'), 300)}`);
  }
  if (request.intent) lines.push(`  built as ${request.intent.verdict} JSON`);
  return lines.join('\n');
}

/** A well-formed request with a key: for seeding and for the property tests' own calls. */
export function apiRequest(method: string, target: string, key: string, body?: unknown): FuzzRequest {
  return {
    method,
    target,
    headers: [['Authorization', `Bearer ${key}`]],
    body: body === undefined ? Buffer.alloc(0) : Buffer.from(JSON.stringify(body), 'utf8'),
  };
}
