/** `npm run openapi`: writes the OpenAPI document, and the typed client's types generated from it. */
import { writeFileSync } from 'node:fs';
import { runWithoutOptions } from '../local/harness/cli';
import { relative } from 'node:path';
import { renderClientTypes } from './client-types';
import { API_DOCS, schemaNamesOf } from './api-docs';
import { buildOpenApiDocument, renderOpenApiDocument } from './document';
import { CLIENT_SCHEMA_PATH, OPENAPI_DOCUMENT_PATH } from './paths';

/** Both files, as `npm run openapi` writes them (and the drift tests compare). */
export function generatedFiles(): [path: string, text: string][] {
  const document = buildOpenApiDocument() as Parameters<typeof renderClientTypes>[0];
  // The typed client is the contacts API's (servers, secret keys): the ingest API's shapes stay out of it.
  const ingestOnly = schemaNamesOf(API_DOCS.ingest);
  const contactsSchemas = Object.fromEntries(Object.entries(document.components.schemas).filter(([name]) => !ingestOnly.has(name)));
  return [
    [OPENAPI_DOCUMENT_PATH, renderOpenApiDocument()],
    [CLIENT_SCHEMA_PATH, renderClientTypes({ components: { schemas: contactsSchemas } }, 'openapi/contacts-service.json')],
  ];
}

const USAGE = `usage: npm run openapi

Writes the OpenAPI document (openapi/contacts-service.json) and the typed client's types generated from it
(client/src/schema.ts). Takes no options.`;

if (require.main === module) {
  runWithoutOptions(USAGE, () => {
    for (const [path, text] of generatedFiles()) {
      writeFileSync(path, text);
      console.log(`wrote ${relative(process.cwd(), path)} (${Buffer.byteLength(text).toLocaleString('en-US')} bytes)`);
    }
  });
}
