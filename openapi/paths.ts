import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** Where `npm run openapi` writes, and the tests read. */
export const OPENAPI_DOCUMENT_PATH = join(ROOT, 'openapi', 'contacts-service.json');
export const CLIENT_SCHEMA_PATH = join(ROOT, 'client', 'src', 'schema.ts');
export const REDOCLY_CONFIG_PATH = join(ROOT, 'openapi', 'redocly.yaml');
