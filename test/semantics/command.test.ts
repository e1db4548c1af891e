import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { freePort } from '../../local/harness/ports';
import { isAlive, runScript, startScript } from '../support/commands';
import { send } from '../support/http';
import { endpoint } from '../support/local-api';
import { sdkClient, startTestProxy } from '../support/semantics';

/**
 * `npm run semantics` as a script uses it, and `npm start` on the proxy.
 */
const READY = /DYNAMODB_ENDPOINT=(http:\/\/localhost:\d+)/;

async function startCommand(args: string[], env: NodeJS.ProcessEnv = {}) {
  const run = startScript('semantics', env, READY, 60_000, args);
  const [, proxy] = await run.started;
  return { ...run, proxy: proxy as string };
}

const listTables = (at: string) =>
  fetch(at, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amz-target': 'DynamoDB_20120810.ListTables',
      authorization: 'AWS4-HMAC-SHA256 Credential=local/20260101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0',
    },
    body: '{}',
  });

test('with --target it prints DYNAMODB_ENDPOINT=<proxy> once the proxy answers, forwards to that DynamoDB, and stops on SIGTERM with exit code 0', async () => {
  const run = await startCommand(['--target', endpoint(), '--port', '0', '--ceiling', '20', '--hold-ms', '2']);
  try {
    expect(run.output.stdout).toBe(`DYNAMODB_ENDPOINT=${run.proxy}\n`);
    expect((await listTables(run.proxy)).status).toBe(200);
    expect(await (await fetch(`${run.proxy}/__semantics/config`)).json()).toEqual({
      ceiling: 20,
      burstSeconds: 1,
      throttling: true,
      conflicts: true,
      holdMs: 2,
    });
  } finally {
    run.child.kill('SIGTERM');
  }
  expect(await run.exited).toBe(0);
});

test('without --target it starts its own DynamoDB Local, and stops it with itself', async () => {
  const run = await startCommand(['--port', '0']);
  const javaPid = Number(/DynamoDB Local \(in memory, pid (\d+)\)/.exec(run.output.stderr)?.[1]);
  expect((await listTables(run.proxy)).status).toBe(200);

  run.child.kill('SIGTERM');

  expect(await run.exited).toBe(0);
  expect(isAlive(javaPid)).toBe(false);
}, 90_000);

test('SEMANTICS_CEILING=off and SEMANTICS_CONFLICTS=off turn both off', async () => {
  const run = await startCommand(['--target', endpoint(), '--port', '0'], { SEMANTICS_CEILING: 'off', SEMANTICS_CONFLICTS: 'off' });
  try {
    expect(await (await fetch(`${run.proxy}/__semantics/config`)).json()).toEqual(expect.objectContaining({ throttling: false, conflicts: false }));
  } finally {
    run.child.kill('SIGTERM');
    await run.exited;
  }
});

test('a bad option is one line naming it, then the usage, and exit code 2', async () => {
  const bad = await runScript('semantics', ['--ceiling', 'fast']);

  expect(bad.status).toBe(2);
  expect(bad.stderr.split('\n')[0]).toBe('error: --ceiling must be a positive number of write units a second, got "fast"');
  expect(bad.stderr).toContain('usage: npm run semantics');
});

test('a busy port is one line saying so, and exit code 1', async () => {
  const busy: Server = createServer();
  await new Promise<void>((resolve) => busy.listen(0, resolve));
  const port = (busy.address() as { port: number }).port;
  try {
    const run = await runScript('semantics', ['--target', endpoint(), '--port', String(port)]);

    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`error: port ${port} is already in use: stop what listens there, or choose another with --port (0 picks a free one)\n`);
  } finally {
    busy.close();
  }
});

test('npm start on the proxy creates its tables through it and serves requests, whose writes the proxy counts', async () => {
  const proxy = await startTestProxy();
  const suffix = randomBytes(4).toString('hex');
  const names = {
    CONTACTS_TABLE_NAME: `sem-contacts-${suffix}`,
    KEYS_TABLE_NAME: `sem-keys-${suffix}`,
    REFERENCE_TABLE_NAME: `sem-reference-${suffix}`,
    REPORTS_TABLE_NAME: `sem-reports-${suffix}`,
  };
  const folders = [mkdtempSync(join(tmpdir(), 'sem-data-')), mkdtempSync(join(tmpdir(), 'sem-servers-'))] as const;
  const server = startScript(
    'start',
    { ...names, DYNAMODB_ENDPOINT: proxy.endpoint, PORT: String(await freePort()), CONTACTS_DATA_DIR: folders[0], CONTACTS_SERVERS_DIR: folders[1] },
    /Contacts API listening on (http:\/\/localhost:\d+)/,
    90_000,
  );
  const direct = sdkClient(endpoint());
  try {
    const [, baseUrl] = await server.started;
    expect(proxy.stats().operations.CreateTable?.requests).toBe(4);
    const factoryId = `fac_sem_${suffix}`;
    const { key } = await new KeyAdmin(documentClientOf(direct), names.KEYS_TABLE_NAME).create({ factoryId, type: 'secret' });

    const created = await send(baseUrl as string, 'POST', '/api/v1/contacts', {
      headers: { Authorization: `Bearer ${key}` },
      body: { email: `a-${suffix}@example.com` },
    });

    expect(created.status).toBe(201);
    expect(proxy.stats({ table: names.CONTACTS_TABLE_NAME, index: '', prefix: factoryId }).matched).toEqual({
      writes: 1,
      units: 1,
      throttles: 0,
      conflicts: 0,
    });
  } finally {
    server.child.kill('SIGTERM');
    await server.exited;
    direct.destroy();
    await proxy.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  }
}, 120_000);
