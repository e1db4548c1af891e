import { join, resolve } from 'node:path';

/** The project root (this file is local/paths.ts). */
export const PROJECT_ROOT = resolve(__dirname, '..');
/**
 * Where `npm start` keeps DynamoDB Local's data: .data/dynamodb, git-ignored,
 * survives restarts. CONTACTS_DATA_DIR moves it (the tests use a temp folder).
 */
export const LOCAL_DATA_DIR = process.env.CONTACTS_DATA_DIR || join(PROJECT_ROOT, '.data', 'dynamodb');
export const DEFAULT_API_PORT = 3000;
export const DEFAULT_DYNAMODB_PORT = 8000;
