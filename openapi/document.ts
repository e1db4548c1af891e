import * as z from 'zod/mini';
import {
  contactAnswerSchema,
  errorAnswerSchema,
  eventsReceiptSchema,
  featureRequestAnswerSchema,
  sentryAnswerSchema,
  sessionReceiptSchema,
  upsertAnswerSchema,
} from '../lambda/infrastructure/http/answers';
import { contactSchema, enrichmentSchema, sourceSchema } from '../lambda/contacts/domain/contact-schema';
import { API_DOCS, type ApiDoc, type RouteKey, type SuccessDoc } from './api-docs';
import { API_TABLE } from './api-table';
import { DOCUMENTED_BODIES } from './ingest-bodies';
import { ERROR_RESPONSES, EVERY_ANSWER_HEADERS, GATEWAY_RESPONSES, HEADERS, type ErrorResponseName, type HeaderName, type JsonSchema } from './http-docs';

/**
 * The OpenAPI 3.1 document of the host, built from the route table
 * (openapi/api-table.ts: every API, its routes, each route's body schema, or openapi/ingest-bodies.ts's), the answers' zod schemas (lambda/contacts/domain/contact-schema.ts,
 * lambda/infrastructure/http/answers.ts) and the descriptions of api-docs.ts and
 * http-docs.ts. `npm run openapi` writes it to openapi/contacts-service.json;
 * a test fails when that file differs from what this gives.
 */

type Json = Record<string, unknown>;

/** The document's own extension: answers to a request no operation matches, per API. */
export interface UnmatchedRequests {
  api: string;
  /** Paths under it belong to this API. */
  pathPrefix: string;
  /** This API also answers paths that no API's prefix claims. */
  otherPaths: boolean;
  responses: Record<string, Json>;
}

const SCHEMAS = '#/components/schemas/';
const ref = (kind: 'schemas' | 'responses', name: string) => ({ $ref: `#/components/${kind}/${name}` });

/** The answers' schemas: output shapes, so an object admits no field it does not list. */
const ANSWER_SCHEMAS: Record<string, z.ZodMiniType> = {
  ErrorAnswer: errorAnswerSchema,
  Contact: contactSchema,
  Enrichment: enrichmentSchema,
  Source: sourceSchema,
  ContactAnswer: contactAnswerSchema,
  UpsertContactAnswer: upsertAnswerSchema,
  EventsReceipt: eventsReceiptSchema,
  FeatureRequestAnswer: featureRequestAnswerSchema,
  SentryAnswer: sentryAnswerSchema,
  SessionReceipt: sessionReceiptSchema,
};

/** A component schema without the standalone document's keywords. */
function componentSchema(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _id, ...rest } = schema;
  return rest;
}

function answerSchemas(): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(ANSWER_SCHEMAS)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, { io: 'output', uri: (id) => `${SCHEMAS}${id}`, unrepresentable: 'throw' });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, componentSchema(schema as JsonSchema)]));
}

/** A request body's schema: what the route's body reader accepts (its input side), with the fields' descriptions. */
function requestSchema(schema: z.ZodMiniType, fields: ApiDoc['routes'][RouteKey]['requestBody'] & object): JsonSchema {
  const shape = (schema as unknown as { shape?: Record<string, z.ZodMiniType> }).shape ?? {};
  const fieldOf = new Map(Object.entries(shape).map(([name, field]) => [field as unknown, name]));
  const undocumented = Object.keys(shape).filter((name) => !(name in fields.fields));
  if (undocumented.length > 0) throw new Error(`${fields.schemaName}: no description for ${undocumented.join(', ')} (openapi/api-docs.ts)`);
  const json = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'throw',
    override: ({ zodSchema, jsonSchema }) => {
      const name = fieldOf.get(zodSchema);
      const doc = name === undefined ? undefined : fields.fields[name];
      if (!doc) return;
      if (doc.nullableRef) {
        // What zod wrote for the field (its own enum, null among its types) gives way to the shared schema.
        for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
        Object.assign(jsonSchema, { description: doc.description, anyOf: [{ $ref: `${SCHEMAS}${doc.nullableRef}` }, { type: 'null' }] });
        return;
      }
      Object.assign(jsonSchema, { description: doc.description }, doc.schema);
    },
  }) as JsonSchema;
  return { ...componentSchema(json), description: fields.description };
}

function headerObjects(names: readonly HeaderName[], required: boolean): Json {
  return Object.fromEntries(names.map((name) => [name, { ...headerObject(name), required }]));
}

function headerObject(name: HeaderName): Json {
  const { description, schema } = HEADERS[name];
  return { description, required: true, schema };
}

function errorResponse(name: ErrorResponseName): Json {
  const doc: { description: string; headers?: readonly HeaderName[]; optionalHeaders?: readonly HeaderName[] } = ERROR_RESPONSES[name];
  return {
    description: doc.description,
    headers: { ...headerObjects([...EVERY_ANSWER_HEADERS, ...(doc.headers ?? [])], true), ...headerObjects(doc.optionalHeaders ?? [], false) },
    content: { 'application/json': { schema: { $ref: `${SCHEMAS}ErrorAnswer` } } },
  };
}

function successResponse(doc: SuccessDoc): Json {
  return {
    description: doc.description,
    headers: { ...headerObjects([...EVERY_ANSWER_HEADERS, ...(doc.headers ?? [])], true), ...headerObjects(doc.optionalHeaders ?? [], false) },
    ...(doc.schema ? { content: { 'application/json': { schema: { $ref: `${SCHEMAS}${doc.schema}` } } } } : {}),
  };
}

const byStatus = <T>(entries: [number, T][]): Record<string, T> =>
  Object.fromEntries(entries.sort(([a], [b]) => a - b).map(([status, value]) => [String(status), value]));

export function buildOpenApiDocument(): Json {
  const schemas: Record<string, JsonSchema> = { ...answerSchemas() };
  const paths: Record<string, Json> = {};
  const tags: Json[] = [];
  const securitySchemes: Json = {};
  const unmatched: UnmatchedRequests[] = [];
  const sharedResponses = new Set<ErrorResponseName>();
  const shared = (name: ErrorResponseName) => {
    sharedResponses.add(name);
    return ref('responses', name);
  };

  for (const [apiName, api] of Object.entries(API_TABLE)) {
    const doc: ApiDoc = API_DOCS[apiName as keyof typeof API_DOCS];
    tags.push(doc.tag);
    securitySchemes[doc.security.name] = doc.security.scheme;
    for (const route of api.routes) {
      const key: RouteKey = `${route.method} ${route.path}`;
      const routeDoc = doc.routes[key];
      if (!routeDoc) throw new Error(`${apiName}: route ${key} has no description in openapi/api-docs.ts`);
      // A zod reader is its own schema; a hand-written one (the ingest API's) is documented beside the document.
      const bodySchema = route.body ?? DOCUMENTED_BODIES[key];
      if (route.readsBody && !bodySchema) throw new Error(`${key}: reads a body that neither its reader nor openapi/ingest-bodies.ts gives a schema for`);
      if (!route.readsBody && bodySchema) throw new Error(`${key}: openapi/ingest-bodies.ts documents a body for a route that reads none`);
      if (bodySchema && !routeDoc.requestBody) throw new Error(`${key}: its body schema needs requestBody in openapi/api-docs.ts`);
      if (!bodySchema && routeDoc.requestBody) throw new Error(`${key}: describes a body, but the route validates none`);
      const responses: [number, Json][] = [
        ...Object.entries(doc.guardResponses).map(([status, name]): [number, Json] => [Number(status), shared(name)]),
        ...Object.entries(routeDoc.responses).map(([status, response]): [number, Json] => [
          Number(status),
          typeof response === 'string' ? shared(response) : successResponse(response),
        ]),
      ];
      const operation: Json = {
        operationId: routeDoc.operationId,
        tags: [doc.tag.name],
        summary: routeDoc.summary,
        description: routeDoc.description,
        security: routeDoc.secured === false ? [] : [{ [doc.security.name]: [] }],
        ...(routeDoc.parameters ? { parameters: routeDoc.parameters } : {}),
        ...(bodySchema && routeDoc.requestBody
          ? {
              requestBody: {
                required: true,
                content: Object.fromEntries(
                  (routeDoc.requestBody.contentTypes ?? ['application/json']).map((type) => [
                    type,
                    { schema: { $ref: `${SCHEMAS}${routeDoc.requestBody?.schemaName}` } },
                  ]),
                ),
              },
            }
          : {}),
        responses: byStatus(responses),
      };
      if (bodySchema && routeDoc.requestBody) schemas[routeDoc.requestBody.schemaName] = requestSchema(bodySchema, routeDoc.requestBody);
      (paths[route.path] ??= {})[route.method.toLowerCase()] = operation;
    }
    const described = Object.keys(doc.routes).filter((key) => !api.routes.some((route) => `${route.method} ${route.path}` === key));
    if (described.length > 0) throw new Error(`${apiName}: openapi/api-docs.ts describes routes the table lacks: ${described.join(', ')}`);
    unmatched.push({
      api: apiName,
      pathPrefix: api.prefix,
      otherPaths: doc.otherPaths,
      responses: byStatus(
        // Inline: linters count a component used only from an extension as unused.
        Object.entries({ ...doc.guardResponses, ...doc.unmatchedResponses }).map(([status, name]) => [Number(status), errorResponse(name)]),
      ),
    });
  }

  const gateway = byStatus(
    Object.entries(GATEWAY_RESPONSES).map(([status, doc]): [number, Json] => {
      const headers: readonly HeaderName[] = 'headers' in doc ? doc.headers : [];
      return [
        Number(status),
        {
          description: doc.description,
          ...(headers.length > 0 ? { headers: headerObjects(headers, false) } : {}),
          content: { 'application/json': { schema: { $ref: `${SCHEMAS}ErrorAnswer` } } },
        },
      ];
    }),
  );

  return {
    openapi: '3.1.0',
    info: {
      title: 'Contacts service',
      version: '1.0.0',
      summary: "Push people into a factory's CRM and read them back.",
      description: [
        "Generated by `npm run openapi` from the service's route table and zod schemas: do not edit.",
        '',
        'Two APIs on one host. The contacts API (`/api/v1/`, tag `contacts`) is for servers: every request needs `Authorization: Bearer <secret key>`, and no answer carries an `Access-Control-*` header. The ingest API (`/ingest/v1/`, tag `ingest`) is for browsers: a publishable key bound to website origins, in the header or in `?key=`, and CORS on every answer. Every body is JSON; every error is `{"error": string}`. Every answer of the service carries `X-Request-Id`, `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.',
        '',
        'Clients: on 429 wait `Retry-After` seconds (1 when absent) and send the same request again; on 503, retry (`Retry-After` says when). Retrying an upsert, an event (same `eventId`) or a feature request (same `requestId`) is always safe.',
        '',
        'Two extensions describe what no operation can: `x-unmatched-requests` (answers to another path, or another method on a path below) and `x-gateway-responses` (answers of the HTTP layer in front of the service, told apart by having no `X-Request-Id`).',
      ].join('\n'),
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [
      {
        url: 'https://{apiId}.execute-api.{region}.amazonaws.com/prod',
        description: 'A deployed stack (its ApiUrl output).',
        variables: {
          apiId: { default: 'abcdef1234', description: "The REST API's id." },
          region: { default: 'us-east-1', description: 'The AWS region of the stack.' },
        },
      },
      { url: 'http://localhost:3000', description: '`npm start` on one machine.' },
    ],
    tags,
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => a.localeCompare(b))),
      // Only those operations use: a linter flags the others as unused.
      responses: Object.fromEntries(
        (Object.keys(ERROR_RESPONSES) as ErrorResponseName[]).filter((name) => sharedResponses.has(name)).map((name) => [name, errorResponse(name)]),
      ),
      securitySchemes,
    },
    'x-unmatched-requests': unmatched,
    'x-gateway-responses': gateway,
  };
}

/** The document as the committed file holds it. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
