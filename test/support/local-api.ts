import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import { createApiHandler, type ApiDependencies, type ApiHandler } from '../../lambda/api/app';
import { createDocumentClient, DEFAULT_DYNAMO_CONFIG, type DynamoConfig } from '../../lambda/store/dynamo-client';
import { DynamoContactStore } from '../../lambda/store/dynamo-contact-store';
import { DynamoKeyAuthorizer } from '../../lambda/store/dynamo-key-authorizer';
import { KeyAdmin, type CreateKeyOptions } from '../../lambda/store/key-admin';
import { tableNamesFromEnv } from '../../lambda/store/schema';
import { createHttpAdapter, listen } from '../../scripts/lib/http-adapter';
import { send, type HttpResponse, type RequestOptions } from './http';

export const tables = tableNamesFromEnv();

/** The DynamoDB Local endpoint of this run (set by global-setup). */
export function endpoint(): string {
  const value = process.env.DYNAMODB_ENDPOINT;
  if (!value) throw new Error('DYNAMODB_ENDPOINT is not set: run the tests through jest (global-setup starts DynamoDB Local)');
  return value;
}

/** A document client on the run's DynamoDB Local. */
export function testDoc(config: Partial<DynamoConfig> = {}) {
  return createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, requestTimeoutMs: 5000, endpoint: endpoint(), ...config });
}

/** A factory id no other test uses. */
export function newFactoryId(label = 't'): string {
  return `fac_${label}_${randomBytes(6).toString('hex')}`;
}

/** Stores backed by the run's DynamoDB Local, wired and configured as the Lambda's. */
export function realDependencies(config: Partial<DynamoConfig> = {}): ApiDependencies {
  const doc = createDocumentClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint(), ...config });
  return { contacts: new DynamoContactStore(doc, tables.contacts), keys: new DynamoKeyAuthorizer(doc, tables.keys) };
}

export interface LocalApi {
  baseUrl: string;
  request(method: string, path: string, options?: RequestOptions): Promise<HttpResponse>;
  close(): Promise<void>;
}

/**
 * The API behind the local HTTP adapter on a free port. By default the real
 * Lambda entry point (lambda/api/handler.ts); pass dependencies to wrap
 * stores (fault injection) or control the clock.
 */
export async function startLocalApi(deps?: ApiDependencies): Promise<LocalApi> {
  const handler: ApiHandler = deps ? createApiHandler(deps) : (await import('../../lambda/api/handler')).handler;
  const server: Server = createHttpAdapter(handler);
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

const admin = new KeyAdmin(testDoc(), tables.keys);

/** Issues a key as the `keys` command does; returns the secret and its id. */
export async function issueKey(factoryId: string, options: Partial<CreateKeyOptions> = {}) {
  const created = await admin.create({ factoryId, type: 'secret', ...options });
  return { key: created.key, keyId: created.keyId };
}

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
