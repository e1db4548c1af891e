import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import type { IncomingHttpHeaders } from 'node:http';
import { OPENAPI_DOCUMENT_PATH } from './paths';

/**
 * Holds an HTTP answer to the committed OpenAPI document
 * (openapi/contacts-service.json): its status must be one the document lists
 * for that request, every header it carries must be described there (and
 * every required one present), and its body must match the schema, with Ajv
 * (JSON Schema 2020-12, the dialect of OpenAPI 3.1). `send`
 * (test/support/http.ts) runs it on every answer the HTTP tests receive, and
 * the fuzz oracle (tools/fuzz/run.ts) on every answer it judges. Test
 * tooling: nothing that ships imports it.
 *
 * Which description applies: an answer without `X-Request-Id` came from the
 * HTTP layer in front of the service (`x-gateway-responses`); otherwise the
 * operation the method and path match, or, when none does, the API's
 * `x-unmatched-requests` entry.
 */

type Json = Record<string, unknown>;
interface HeaderObject {
  required?: boolean;
  schema: Json;
}
interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema: Json }>;
}
interface UnmatchedRequests {
  api: string;
  pathPrefix: string;
  otherPaths: boolean;
  responses: Record<string, ResponseObject | { $ref: string }>;
}
interface Document {
  paths: Record<string, Record<string, { responses: Record<string, ResponseObject | { $ref: string }> }>>;
  components: { schemas: Record<string, Json>; responses?: Record<string, ResponseObject> };
  'x-unmatched-requests': UnmatchedRequests[];
  'x-gateway-responses': Record<string, ResponseObject>;
}

/** Framing headers of HTTP itself, not of the API: never described in an OpenAPI document. */
const TRANSPORT_HEADERS = new Set(['content-type', 'content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

export interface CheckedRequest {
  method: string;
  /** Path and query, as sent. */
  path: string;
}

export interface CheckedResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

export class OpenApiChecker {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true });
  /** Headers are text on the wire: an integer header is checked as the number it spells. */
  private readonly headerAjv = new Ajv2020({ allErrors: true, strict: true, coerceTypes: true });
  private readonly bodies = new Map<Json, ValidateFunction>();
  private readonly headerChecks = new Map<Json, ValidateFunction>();
  private readonly routes: { method: string; template: string; regexp: RegExp; responses: Document['paths'][string][string]['responses'] }[];

  constructor(private readonly document: Document) {
    addFormats(this.ajv);
    // The component schemas, under the document's own pointers, so their $refs resolve as written.
    this.ajv.addVocabulary(['components']);
    this.ajv.addSchema({ $id: 'openapi:document', components: { schemas: document.components.schemas } });
    this.routes = Object.entries(document.paths).flatMap(([template, item]) =>
      Object.entries(item).map(([method, operation]) => ({
        method: method.toUpperCase(),
        template,
        regexp: new RegExp(`^${template.replace(/\{[^/}]+\}/g, '[^/]+')}/?$`),
        responses: operation.responses,
      })),
    );
  }

  /** Reads the committed document. */
  static load(path = OPENAPI_DOCUMENT_PATH): OpenApiChecker {
    return new OpenApiChecker(JSON.parse(readFileSync(path, 'utf8')) as Document);
  }

  /** What in `response` the document does not describe; empty when it all matches. */
  problems(request: CheckedRequest, response: CheckedResponse): string[] {
    const path = request.path.split('?')[0] ?? '/';
    // Methods are case-sensitive (RFC 9110 9.1): "get" is not GET.
    const method = request.method;
    const { description, where, gateway } = this.describe(method, path, response);
    const status = String(response.status);
    const found = description[status];
    if (!found) return [`status ${status} is not documented for ${where} (documented: ${Object.keys(description).join(', ')})`];
    const documented = this.resolve(found);
    return [...this.headerProblems(documented, response), ...this.bodyProblems(documented, method, gateway, response)].map(
      (problem) => `${where} → ${status}: ${problem}`,
    );
  }

  private describe(method: string, path: string, response: CheckedResponse) {
    if (response.headers['x-request-id'] === undefined) {
      return {
        description: this.document['x-gateway-responses'],
        where: `${method} ${path} (an answer without X-Request-Id: x-gateway-responses)`,
        gateway: true,
      };
    }
    const onPath = this.routes.filter((route) => route.regexp.test(path));
    const operation = onPath.find((route) => route.method === method);
    if (operation) return { description: operation.responses, where: `${method} ${operation.template}`, gateway: false };
    const unmatched = this.document['x-unmatched-requests'];
    const api =
      unmatched.filter((entry) => path.startsWith(entry.pathPrefix)).sort((a, b) => b.pathPrefix.length - a.pathPrefix.length)[0] ??
      unmatched.find((entry) => entry.otherPaths);
    if (!api) throw new Error(`the document has no x-unmatched-requests entry for ${path}`);
    return { description: api.responses, where: `${method} ${path} (no operation: x-unmatched-requests of ${api.api})`, gateway: false };
  }

  private resolve(response: ResponseObject | { $ref: string }): ResponseObject {
    if (!('$ref' in response)) return response;
    const name = response.$ref.replace('#/components/responses/', '');
    const resolved = this.document.components.responses?.[name];
    if (!resolved) throw new Error(`the document's ${response.$ref} does not resolve`);
    return resolved;
  }

  private headerProblems(documented: ResponseObject, response: CheckedResponse): string[] {
    const described = new Map(Object.entries(documented.headers ?? {}).map(([name, header]) => [name.toLowerCase(), { name, header }]));
    const problems: string[] = [];
    for (const [name, value] of Object.entries(response.headers)) {
      if (TRANSPORT_HEADERS.has(name)) continue;
      const entry = described.get(name);
      if (!entry) {
        problems.push(`header ${name} is not documented`);
        continue;
      }
      const check = this.headerCheck(entry.header.schema);
      const holder = { value: Array.isArray(value) ? value.join(', ') : value };
      if (!check(holder)) problems.push(`header ${entry.name}: ${JSON.stringify(value)} ${this.headerAjv.errorsText(check.errors, { dataVar: 'value' })}`);
    }
    for (const [lower, { name, header }] of described) {
      if (header.required && response.headers[lower] === undefined) problems.push(`required header ${name} is missing`);
    }
    return problems;
  }

  private bodyProblems(documented: ResponseObject, method: string, gateway: boolean, response: CheckedResponse): string[] {
    const content = documented.content ?? {};
    const mediaTypes = Object.keys(content);
    // HTTP sends no body in an answer to HEAD, whatever the document says the body would be. The HTTP
    // layer's refusal of a request it could not parse is the exception: it cannot trust the method it read.
    const bodyless = mediaTypes.length === 0 || (method === 'HEAD' && !gateway);
    if (bodyless || (method === 'HEAD' && response.text === '')) {
      return response.text === '' ? [] : [`a body the document does not describe: ${response.text.slice(0, 200)}`];
    }
    const contentType =
      String(response.headers['content-type'] ?? '')
        .split(';')[0]
        ?.trim() ?? '';
    const media = content[contentType];
    if (!media) return [`Content-Type ${JSON.stringify(contentType)} is not documented (documented: ${mediaTypes.join(', ')})`];
    let body: unknown;
    try {
      body = JSON.parse(response.text);
    } catch {
      return [`the body is not JSON: ${response.text.slice(0, 200)}`];
    }
    const validate = this.bodyValidator(media.schema);
    return validate(body) ? [] : [`body ${this.ajv.errorsText(validate.errors, { dataVar: 'body' })}: ${response.text.slice(0, 300)}`];
  }

  private headerCheck(schema: Json): ValidateFunction {
    let check = this.headerChecks.get(schema);
    if (!check) {
      check = this.headerAjv.compile({ type: 'object', properties: { value: schema } });
      this.headerChecks.set(schema, check);
    }
    return check;
  }

  private bodyValidator(schema: Json): ValidateFunction {
    let validate = this.bodies.get(schema);
    if (!validate) {
      const target = typeof schema.$ref === 'string' ? { $ref: `openapi:document${schema.$ref}` } : schema;
      validate = this.ajv.compile(target);
      this.bodies.set(schema, validate);
    }
    return validate;
  }
}

let shared: OpenApiChecker | undefined;

/** Fails with every problem when the document does not describe `response` (the one check `send` runs). */
export function assertDocumented(request: CheckedRequest, response: CheckedResponse): void {
  shared ??= OpenApiChecker.load();
  const problems = shared.problems(request, response);
  if (problems.length > 0) {
    throw new Error(`The answer differs from the OpenAPI document (openapi/contacts-service.json):\n- ${problems.join('\n- ')}`);
  }
}
