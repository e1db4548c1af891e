import { readFileSync } from 'node:fs';
import * as z from 'zod/mini';
import { API_TABLE } from '../../openapi/api-table';
import { API_DOCS } from '../../openapi/api-docs';
import { buildOpenApiDocument } from '../../openapi/document';
import { generatedFiles } from '../../openapi/write';

type Operation = { operationId: string; requestBody?: { content: Record<string, { schema: { $ref: string } }> } };
const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
};
const routes = Object.entries(API_TABLE).flatMap(([api, spec]) => spec.routes.map((route) => ({ api, route, key: `${route.method} ${route.path}` })));

describe('the OpenAPI document', () => {
  test.each(generatedFiles().map(([path, text]) => [path.replace(/.*\/(openapi|client)\//, '$1/'), path, text]))(
    '%s is what npm run openapi generates from the route table and the zod schemas',
    (_name, path, text) => {
      expect(readFileSync(path, 'utf8')).toBe(text);
    },
  );

  test.each(routes.map(({ api, key }) => [key, api]))('route %s of API_TABLE (%s) is described in openapi/api-docs.ts', (key, api) => {
    expect(Object.keys(API_DOCS[api as keyof typeof API_DOCS].routes)).toContain(key);
  });

  test('openapi/api-docs.ts describes no route the table lacks', () => {
    const described = Object.entries(API_DOCS).flatMap(([api, doc]) => Object.keys(doc.routes).map((key) => `${api} ${key}`));
    expect(described.sort()).toEqual(routes.map(({ api, key }) => `${api} ${key}`).sort());
  });

  test.each(routes.filter(({ route }) => route.method !== 'OPTIONS').map(({ route, key }) => [key, route]))(
    "%s documents at least one 4XX answer (Redocly's operation-4xx-response, off for the preflights that have none)",
    (_key, route) => {
      const responses = (document.paths[route.path]?.[route.method.toLowerCase()] as unknown as { responses: Record<string, unknown> }).responses;
      expect(Object.keys(responses).some((status) => /^4\d\d$/.test(status))).toBe(true);
    },
  );

  test.each(routes.map(({ route, key }) => [key, route]))('%s is an operation of the document', (_key, route) => {
    expect(document.paths[route.path]?.[route.method.toLowerCase()]).toEqual(expect.objectContaining({ operationId: expect.any(String) }));
  });

  test.each(routes.filter(({ route }) => route.body).map(({ route, key }) => [key, route]))(
    "%s: the document's request body has the fields and required ones of the schema its validateBody step checks",
    (_key, route) => {
      const schema = route.body as z.ZodMiniType;
      const fromZod = z.toJSONSchema(schema, { io: 'input' }) as { properties: Record<string, unknown>; required?: string[] };
      const operation = document.paths[route.path]?.[route.method.toLowerCase()] as Operation;
      const name = operation.requestBody?.content['application/json']?.schema.$ref.split('/').pop() as string;
      const inDocument = document.components.schemas[name];
      expect(Object.keys(inDocument?.properties ?? {})).toEqual(Object.keys(fromZod.properties));
      expect(inDocument?.required).toEqual(fromZod.required);
    },
  );

  test("a contact's source is one schema, Source, that the answer and the upsert request refer to (one type in a generated client)", () => {
    const schemas = document.components.schemas as Record<string, Record<string, unknown>>;
    expect(schemas.Source).toEqual({ type: 'string', enum: ['api', 'external_crm', 'ads', 'manual'], description: expect.any(String) });
    expect((schemas.Contact?.properties as Record<string, unknown>).source).toEqual({ $ref: '#/components/schemas/Source' });
    expect((schemas.UpsertContactRequest?.properties as Record<string, unknown>).source).toEqual({
      description: expect.any(String),
      anyOf: [{ $ref: '#/components/schemas/Source' }, { type: 'null' }],
    });
    // No other place restates the values.
    const restating: string[] = [];
    const walk = (value: unknown, at: string) => {
      if (Array.isArray(value)) value.forEach((item, index) => walk(item, `${at}/${index}`));
      else if (typeof value === 'object' && value !== null) {
        const object = value as Record<string, unknown>;
        if (Array.isArray(object.enum) && object.enum.includes('external_crm')) restating.push(at);
        for (const [key, item] of Object.entries(object)) walk(item, `${at}/${key}`);
      }
    };
    walk(document, '#');
    expect(restating).toEqual(['#/components/schemas/Source']);
  });

  test("the client's generated types name that one Source type in the contact and in the upsert request", () => {
    const types = generatedFiles().find(([path]) => path.endsWith('client/src/schema.ts'))?.[1] ?? '';
    expect(types).toMatch(/export type Source = "api" \| "external_crm" \| "ads" \| "manual";/);
    expect(types).toMatch(/\n {2}source: Source;/);
    expect(types).toMatch(/\n {2}source\?: Source \| null;/);
  });
});
