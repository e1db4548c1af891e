import { spawnSync } from 'node:child_process';
import { readdirSync, readlinkSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { newTenant, startLocalApi, type LocalApi } from '../support/local-api';

/**
 * Runs only under jest.bundle.config.js: proves the HTTP tests there talk to
 * the synthesized assets in a process that cannot reach the project's packages.
 */
const dir = process.env.CONTACTS_API_BUNDLE_DIR ?? '';

describe('the API served from the synthesized asset', () => {
  let api: LocalApi & { pid?: number };
  beforeAll(async () => {
    api = await startLocalApi();
  });
  afterAll(() => api.close());

  test('runs under jest.bundle.config.js, with the asset folder set', () => {
    expect(dir).not.toBe('');
  });

  test('the folder holds only the two assets (contacts, ingest) and the HTTP adapter', () => {
    expect(readdirSync(dir).sort()).toEqual(['index.mjs', 'ingest.mjs', 'serve-asset.mjs']);
  });

  test('a Node process in that folder cannot load any package (nothing outside the bundle is reachable)', () => {
    const probe = spawnSync(process.execPath, ['--input-type=module', '-e', "await import('@aws-sdk/client-dynamodb')"], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
    });
    expect(probe.status).not.toBe(0);
    expect(probe.stderr).toMatch(/Cannot find package/);
  });

  test('the server answering the tests is a process running in that folder', async () => {
    expect(api.pid).toEqual(expect.any(Number));
    expect(readlinkSync(join('/proc', String(api.pid), 'cwd'))).toBe(dir);
    const tenant = await newTenant(api, 'asset');
    const res = await tenant.upsert({ email: 'asset@example.com' });
    expect(res.status).toBe(201);
    expect(res.headers['x-request-id']).toEqual(expect.any(String));
  });

  test('the server runs on the Node.js that runs the tests (Node.js 22 under npm run test:node22, as on Lambda)', () => {
    expect(readlinkSync(join('/proc', String(api.pid), 'exe'))).toBe(realpathSync(process.execPath));
  });

  test('paths under /ingest/v1/ are answered by the ingest asset, the rest by the contacts asset', async () => {
    const preflight = await api.request('OPTIONS', '/ingest/v1/events', { headers: { Origin: 'https://a.example' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('https://a.example');
    const contacts = await api.request('OPTIONS', '/api/v1/contacts', { headers: { Origin: 'https://a.example' } });
    expect(contacts.status).toBe(403);
    expect(contacts.headers['access-control-allow-origin']).toBeUndefined();
  });
});
