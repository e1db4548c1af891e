import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createContactsHandler, type ContactsDependencies } from '../../lambda/contacts/api/routes';
import { createIngestHandler } from '../../lambda/ingest/api/routes';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { createDocumentClient, DEFAULT_DYNAMO_CONFIG, type DynamoConfig } from '../../lambda/infrastructure/store/dynamo-client';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { ingestDynamoDependencies, type IngestWiring } from '../../lambda/ingest/api/ingest-wiring';
import { API_PREFIXES } from '../../lambda/infrastructure/http/prefixes';
import type { IngestDependencies } from '../../lambda/ingest/api/routes';
import { KeyAdmin, type CreateKeyOptions } from '../../lambda/infrastructure/store/keys/key-admin';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { startBundledServer } from '../../local/harness/bundle/bundled-server';
import { hostHandler, sourceHandlers } from '../../local/harness/host';
import { createHttpAdapter, listen, type AdapterOptions } from '../../local/harness/http-adapter';
import { send, type HttpResponse, type RequestOptions } from './http';

export const tables = tableNamesFromEnv();

/** The DynamoDB Local endpoint of this run (set by global-setup). */
export function endpoint(): string {
  const value = process.env.DYNAMODB_ENDPOINT;
  if (!value) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests through jest (global-setup starts DynamoDB Local)');
  return value;
}

/**
 * A document client on the run's DynamoDB Local, for a test's own reads and
 * writes (seeding, checking what was stored): with no timeout, so a loaded
 * machine slows a test down instead of failing it (UNHURRIED, below).
 */
export function testDoc(config: Partial<DynamoConfig> = {}) {
  return createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, ...UNHURRIED, endpoint: endpoint(), ...config });
}

/**
 * No timeout on a DynamoDB attempt, for tests about races and counts, not
 * speed: on a loaded 2-core machine DynamoDB Local queues, and a timeout
 * would turn a slow answer into a 503 whose write may have landed. With it a
 * loaded machine makes such a test slower, never different.
 */
export const UNHURRIED: Pick<DynamoConfig, 'connectionTimeoutMs' | 'requestTimeoutMs'> = { connectionTimeoutMs: 0, requestTimeoutMs: 0 };
/**
 * The local adapter's options for those tests: no Lambda timeout, and no
 * limit on the time a request takes to arrive (a saturated machine delays
 * even the test's own client: a 408 there says nothing about the service).
 */
export const UNHURRIED_ADAPTER: AdapterOptions = { timeoutMs: 600_000, headersTimeoutMs: 600_000, requestTimeoutMs: 600_000 };

/** A factory id no other test uses. */
export function newFactoryId(label = 't'): string {
  return `fac_${label}_${randomBytes(6).toString('hex')}`;
}

/** Stores backed by the run's DynamoDB Local, wired and configured as the Lambda's. */
export function realDependencies(config: Partial<DynamoConfig> = {}): ContactsDependencies {
  const doc = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint(), ...config });
  return dynamoDependencies(doc, tables);
}

export interface LocalApi {
  baseUrl: string;
  /** The serving process when it is not this one (the bundled asset). */
  pid?: number;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

/** The ingest API's stores on the run's DynamoDB Local, wired and configured as the Lambda's. */
export function realIngestDependencies(wiring: IngestWiring = {}, config: Partial<DynamoConfig> = {}): IngestDependencies {
  const doc = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint(), ...config });
  return ingestDynamoDependencies(doc, tables, wiring);
}

/**
 * The host behind the local HTTP adapter on a free port, as `npm start`
 * serves it: the contacts API, and the ingest API under /ingest/v1/. By
 * default the real Lambda entry points (lambda/contacts/api/contacts-entry.ts and
 * ingest-entry.ts), or under jest.bundle.config.js their synthesized
 * assets; pass dependencies to wrap stores (fault injection) or control the
 * clock (then only the contacts API is served).
 */
export async function startLocalApi(deps?: ContactsDependencies): Promise<LocalApi> {
  const bundleDir = process.env.CONTACTS_API_BUNDLE_DIR;
  if (!deps && bundleDir) return startBundledApi(bundleDir);
  return serve(deps ? createContactsHandler(deps) : hostHandler(await sourceHandlers()));
}

/**
 * Both APIs in this process, the ingest API on the dependencies given (a
 * clock, wider limits, faults); `adapter` the local adapter's options (a
 * longer Lambda timeout).
 */
export async function startLocalHost(
  ingest: IngestDependencies,
  contacts: ContactsDependencies = realDependencies(),
  adapter: AdapterOptions = {},
): Promise<LocalApi> {
  return serve(hostHandler({ contacts: createContactsHandler(contacts), ingest: createIngestHandler(ingest) }), adapter);
}

async function serve(handler: ApiHandler, adapter: AdapterOptions = {}): Promise<LocalApi> {
  const server: Server = createHttpAdapter(handler, adapter);
  const port = await listen(server, 0, '127.0.0.1');
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    request: (method, path, options) => send(baseUrl, method, path, options),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The run's source maps store as the functions read it (S3_ENDPOINT, SOURCE_MAPS_BUCKET), when the run started one. */
function mapsStoreEnv(): Record<string, string> {
  const { S3_ENDPOINT, SOURCE_MAPS_BUCKET } = process.env;
  return S3_ENDPOINT && SOURCE_MAPS_BUCKET ? { S3_ENDPOINT, SOURCE_MAPS_BUCKET } : {};
}

/**
 * Under jest.bundle.config.js: the synthesized Lambda asset in its own Node
 * process, configured as the stack configures the function.
 */
async function startBundledApi(dir: string): Promise<LocalApi> {
  const server = await startBundledServer(
    dir,
    {
      DYNAMODB_ENDPOINT: endpoint(),
      CONTACTS_TABLE_NAME: tables.contacts,
      KEYS_TABLE_NAME: tables.keys,
      REPORTS_TABLE_NAME: tables.reports,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
      LOG_LEVEL: 'ERROR',
      POWERTOOLS_METRICS_DISABLED: 'true',
      // The stack gives the ingest function its maps bucket; here the run's embedded store stands in (global-setup.ts).
      ...mapsStoreEnv(),
    },
    undefined,
    API_PREFIXES.ingest,
  );
  return {
    baseUrl: server.baseUrl,
    pid: server.pid,
    request: (method, path, options) => send(server.baseUrl, method, path, options),
    close: async () => {
      await server.stop();
      // A 5xx or a crash inside the asset is logged at ERROR: surface it in the failing run.
      if (server.stderr().trim()) throw new Error(`the bundled API wrote errors:\n${server.stderr()}`);
    },
  };
}

const admin = new KeyAdmin(testDoc(), tables.keys);

/** Issues a key as the `keys` command does; returns the secret and its id. */
export async function issueKey(factoryId: string, options: Partial<CreateKeyOptions> = {}) {
  const created = await admin.create({ factoryId, type: 'secret', ...options });
  return { key: created.key, keyId: created.keyId };
}

/** Issues a publishable key bound to `origins`, as `keys create --type publishable` does. */
export async function issuePublishableKey(factoryId: string, origins: string[], options: Partial<CreateKeyOptions> = {}) {
  return issueKey(factoryId, { type: 'publishable', origins, ...options });
}

/** The keys the test's admin client sees (for the exposed record). */
export const listKeys = (factoryId: string) => admin.list(factoryId);

export async function revokeKey(keyId: string) {
  return admin.revoke(keyId);
}

export const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

/** A fresh factory with its own key, and the calls tests make as that tenant. */
export async function newTenant(api: LocalApi, label = 't') {
  const factoryId = newFactoryId(label);
  const auth = bearer((await issueKey(factoryId)).key);
  return {
    factoryId,
    auth,
    upsert: (body: unknown) => api.request('POST', '/api/v1/contacts', { headers: auth, body }),
    read: (id: string) => api.request('GET', `/api/v1/contacts/${id}`, { headers: auth }),
  };
}
