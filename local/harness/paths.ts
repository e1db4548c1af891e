import { join, resolve } from 'node:path';

/** The project root (this file is local/harness/paths.ts). */
export const PROJECT_ROOT = resolve(__dirname, '..', '..');
/** Where `npm start` keeps DynamoDB Local's data unless told otherwise: git-ignored, survives restarts. */
export const DEFAULT_DATA_DIR = join(PROJECT_ROOT, '.data', 'dynamodb');
/**
 * The data folder CONTACTS_DATA_DIR names (the tests use temp folders), made
 * absolute against the project root, where npm runs every script: DynamoDB
 * Local runs in another folder and would read a relative path from there.
 */
export const CHOSEN_DATA_DIR = process.env.CONTACTS_DATA_DIR ? resolve(PROJECT_ROOT, process.env.CONTACTS_DATA_DIR) : undefined;
export const LOCAL_DATA_DIR = CHOSEN_DATA_DIR ?? DEFAULT_DATA_DIR;
/**
 * Where each running `npm start` registers (one file per server), so that a
 * command finds it whatever its data folder. CONTACTS_SERVERS_DIR moves it
 * (the tests keep theirs apart from a developer's servers).
 */
export const SERVERS_DIR = process.env.CONTACTS_SERVERS_DIR ? resolve(PROJECT_ROOT, process.env.CONTACTS_SERVERS_DIR) : join(PROJECT_ROOT, '.data', 'servers');
export const DEFAULT_API_PORT = 3000;
export const DEFAULT_DYNAMODB_PORT = 8000;
