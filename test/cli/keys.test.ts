import { bearer, endpoint, newFactoryId, startLocalApi, type LocalApi } from '../support/local-api';
import { runScript, runScriptInProcess } from '../support/commands';

/**
 * The keys command against the run's DynamoDB Local, its entry file in this
 * process (a Node process and a TypeScript load per call were most of this
 * file's time); the first test runs it as its own process, as `npm run keys` does.
 */
const keys = (...args: string[]) => runScriptInProcess('keys', args, { DYNAMODB_ENDPOINT: endpoint() });
const keysProcess = (...args: string[]) => runScript('keys', args, { DYNAMODB_ENDPOINT: endpoint() });
const control = (...args: string[]) => runScriptInProcess('control', args, { DYNAMODB_ENDPOINT: endpoint() });

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi();
});
afterAll(() => api.close());

describe('npm run keys -- create', () => {
  test('prints one JSON object with the secret, shown once, and a key id; the key works', async () => {
    const factoryId = newFactoryId('cli');
    const result = await keysProcess('create', '--factory', factoryId);
    expect(result.status).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ key: expect.stringMatching(/^dfsk_/), keyId: expect.stringMatching(/^key_/), factoryId, rateLimit: 30000 });
    const res = await api.request('POST', '/api/v1/contacts', { headers: bearer(created.key), body: { email: 'cli@example.com' } });
    expect(res.status).toBe(201);
    expect(res.json.contact.factoryId).toBe(factoryId);
  });

  test('--rate-limit sets the per-minute limit', async () => {
    const result = await keys('create', '--factory', newFactoryId('cli'), '--rate-limit', '120');
    expect(JSON.parse(result.stdout).rateLimit).toBe(120);
  });

  test('--type publishable issues a dfpk_ key bound to its normalized origins, 600 requests per minute', async () => {
    const result = await keys(
      'create',
      '--factory',
      newFactoryId('cli'),
      '--type',
      'publishable',
      '--origin',
      'https://www.Example.com',
      '--origin',
      'http://localhost:5173',
      '--origin',
      'HTTPS://*.Example.COM:443/',
      '--origin',
      'https://www.example.com:443',
    );
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      key: expect.stringMatching(/^dfpk_/),
      type: 'publishable',
      rateLimit: 600,
      origins: ['https://www.example.com', 'http://localhost:5173', 'https://*.example.com'],
    });
  });

  test('--servers marks a publishable key for servers too; every publishable key prints a Sentry DSN of its own key and project', async () => {
    const result = await keys('create', '--factory', newFactoryId('cli'), '--type', 'publishable', '--origin', 'https://app.example.com', '--servers');
    expect(result.status).toBe(0);
    const created = JSON.parse(result.stdout);
    expect(created).toMatchObject({ servers: true, sentryProjectId: expect.stringMatching(/^\d{15}$/) });
    expect(created.dsn).toMatch(new RegExp(`^http://[0-9a-f]{64}@localhost:\\d+/ingest/sentry/${created.sentryProjectId}$`));
    const browserOnly = JSON.parse(
      (await keys('create', '--factory', newFactoryId('cli'), '--type', 'publishable', '--origin', 'https://app.example.com')).stdout,
    );
    expect(browserOnly.servers).toBe(false);
  });

  test('--servers on a secret key is refused (exit code 2)', async () => {
    const result = await keys('create', '--factory', newFactoryId('cli'), '--servers');
    expect([result.status, result.stderr]).toEqual([2, expect.stringContaining('--servers is only for --type publishable')]);
  });

  test.each([
    ['*', /origin \* \(any website\) is not allowed/],
    ['null', /origin null is not allowed/],
    ['https://app.example.com/path', /has a path, query or fragment/],
    ['https://app.example.com?x=1', /has a path, query or fragment/],
    ['ftp://app.example.com', /must use http or https, not ftp/],
    ['chrome-extension://abcdef', /must use http or https/],
    ['app.example.com', /must look like https:\/\/app.example.com/],
    ['https://*.com', /a wildcard needs a domain of two labels or more/],
    ['https://*.localhost:5173', /a wildcard needs a domain of two labels or more/],
    ['https://a.*.example.com', /a wildcard may only be the whole first label/],
    ['https://user@app.example.com', /has a user name/],
  ])('refuses the origin %s with a one-line error (exit code 2)', async (origin, message) => {
    const result = await keys('create', '--factory', 'fac_x', '--type', 'publishable', '--origin', origin);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
  });

  test('refuses more than 50 origins', async () => {
    const origins = Array.from({ length: 51 }, (_, i) => ['--origin', `https://site${i}.example.com`]).flat();
    const result = await keys('create', '--factory', 'fac_x', '--type', 'publishable', ...origins);
    expect(result.status).toBe(2);
    expect(result.stderr.split('\n')[0]).toMatch(/at most 50 origins \(got 51\)/);
  });

  test.each([
    [['create'], /keys create needs --factory <fac_id>/],
    [['create', '--factory', 'acme'], /--factory must look like "fac_acme"/],
    [['create', '--factory', 'fac_x', '--rate-limit', '0'], /--rate-limit must be a whole number/],
    [['create', '--factory', 'fac_x', '--type', 'publishable'], /needs at least one --origin/],
    [['create', '--factory', 'fac_x', '--type', 'publishable', '--origin', 'https://x.com/path'], /has a path/],
    [['create', '--factory', 'fac_x', '--type', 'admin'], /--type must be secret or publishable/],
    [['create', '--factory', 'fac_canary'], /fac_canary is reserved for the pre-traffic check of deployments .*: no key is issued for it/],
    [['frobnicate'], /unknown action "frobnicate": list, create, revoke/],
    [[], /an action is required/],
    [['revoke', 'dfsk_secret'], /revoke takes a key id \(key_ \+ 16 hex/],
    [['revoke', 'key_0123456789abcdef', '--factory', 'fac_x'], /name the key once/],
    [['list', 'key_0123456789abcdef'], /unexpected argument "key_0123456789abcdef"/],
    [['create', '--factory', 'fac_x', '--colour', 'red'], /unknown option --colour/],
    [['create', '--factory', 'fac_x', '--factory', 'fac_y'], /--factory is given twice/],
    [['list', '--factory', 'fac_x', '--region', 'eu-west-1'], /--region goes with --stack/],
  ])('refuses %j with exit code 2, one error line and the usage', async (args, message) => {
    const result = await keys(...args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).toMatch(/^usage: npm run --silent keys/m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  // The checks above run the entry file in this process; end to end, as a user runs it, one of each kind.
  test.each([
    [['create', '--factory', 'fac_x', '--type', 'publishable', '--origin', '*'], /origin \* \(any website\) is not allowed/],
    [['frobnicate'], /unknown action/],
  ])('as its own process, refuses %j with exit code 2, one error line and the usage', async (args, message) => {
    const result = await keys(...args);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(result.stderr).toMatch(/^usage: npm run --silent keys/m);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('npm run keys -- list', () => {
  test("lists the factory's keys, never a secret or its hash", async () => {
    const factoryId = newFactoryId('cli');
    const first = JSON.parse((await keys('create', '--factory', factoryId)).stdout);
    const second = JSON.parse((await keys('create', '--factory', factoryId, '--rate-limit', '10')).stdout);
    const result = await keys('list', '--factory', factoryId);
    expect(result.status).toBe(0);
    const listed = JSON.parse(result.stdout) as Record<string, unknown>[];
    expect(listed.map((k) => k.keyId).sort()).toEqual([first.keyId, second.keyId].sort());
    expect(result.stdout).not.toContain(first.key.slice(5));
    expect(result.stdout).not.toMatch(/keyHash|[0-9a-f]{64}/);
    expect(listed[0]).toMatchObject({ status: 'active', type: 'secret', hint: expect.any(String), createdAt: expect.any(String) });
  });

  test('shows the type, origins and status of each key, and the exposed record of a secret key seen at the ingest API', async () => {
    const factoryId = newFactoryId('cli');
    const secret = JSON.parse((await keys('create', '--factory', factoryId)).stdout);
    JSON.parse((await keys('create', '--factory', factoryId, '--type', 'publishable', '--origin', 'https://shop.example.com')).stdout);
    const leaked = await api.request('POST', '/ingest/v1/events', {
      headers: { ...bearer(secret.key), Origin: 'https://shop.example.com', 'Content-Type': 'application/json' },
      body: { events: [] },
    });
    expect(leaked.status).toBe(401);
    const listed = JSON.parse((await keys('list', '--factory', factoryId)).stdout) as Record<string, any>[];
    const byType = Object.fromEntries(listed.map((k) => [k.type, k]));
    expect(byType.secret).toMatchObject({ status: 'active', exposed: { count: 1, firstSeenAt: expect.any(String), lastSeenAt: expect.any(String) } });
    expect(byType.publishable).toMatchObject({ status: 'active', origins: ['https://shop.example.com'], rateLimit: 600 });
    expect(byType.publishable).not.toHaveProperty('exposed');
  });

  test('lists nothing for a factory without keys', async () => {
    const result = await keys('list', '--factory', newFactoryId('empty'));
    expect([result.status, JSON.parse(result.stdout)]).toEqual([0, []]);
  });
});

describe('npm run keys -- revoke', () => {
  test('revokes: the key gets 401 from its next request, and the list shows it revoked', async () => {
    const factoryId = newFactoryId('cli');
    const created = JSON.parse((await keys('create', '--factory', factoryId)).stdout);
    const result = await keys('revoke', '--factory', factoryId, '--key', created.keyId);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ keyId: created.keyId, status: 'revoked', revokedAt: expect.any(String) });
    const res = await api.request('GET', '/api/v1/contacts?email=a%40b.co', { headers: bearer(created.key) });
    expect(res.status).toBe(401);
    const listed = JSON.parse((await keys('list', '--factory', factoryId)).stdout) as Record<string, any>[];
    expect(listed[0]?.status).toBe('revoked');
  });

  test('revokes by the key id alone, as the local contract spells it: keys -- revoke <keyId>', async () => {
    const factoryId = newFactoryId('cli');
    const created = JSON.parse((await keys('create', '--factory', factoryId)).stdout);
    const result = await keys('revoke', created.keyId);
    expect(result.status).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ keyId: created.keyId, factoryId, status: 'revoked' });
    const res = await api.request('GET', '/api/v1/contacts?email=a%40b.co', { headers: bearer(created.key) });
    expect(res.status).toBe(401);
  });

  test('an unknown key id alone is a one-line error, exit code 1', async () => {
    const unknown = await keys('revoke', 'key_0000000000000000');
    expect([unknown.status, unknown.stderr.split('\n')[0]]).toEqual([
      1,
      "error: no key key_0000000000000000 (keys -- list --factory <fac_id> shows a factory's keys)",
    ]);
  });

  test('revoking twice keeps the first revocation time', async () => {
    const factoryId = newFactoryId('cli');
    const created = JSON.parse((await keys('create', '--factory', factoryId)).stdout);
    const first = JSON.parse((await keys('revoke', '--factory', factoryId, '--key', created.keyId)).stdout);
    const second = JSON.parse((await keys('revoke', '--factory', factoryId, '--key', created.keyId)).stdout);
    expect(second.revokedAt).toBe(first.revokedAt);
  });

  test("an unknown key id, or another factory's key, is a one-line error, exit code 1, and the key stays active", async () => {
    const unknown = await keys('revoke', '--factory', 'fac_x', '--key', 'key_0000000000000000');
    expect(unknown.status).toBe(1);
    expect(unknown.stderr.trim()).toBe('error: no key key_0000000000000000 in fac_x');
    const owner = newFactoryId('cli');
    const created = JSON.parse((await keys('create', '--factory', owner)).stdout);
    const other = await keys('revoke', '--factory', `${owner}_other`, '--key', created.keyId);
    expect([other.status, other.stderr.trim()]).toEqual([1, `error: no key ${created.keyId} in ${owner}_other`]);
    expect((JSON.parse((await keys('list', '--factory', owner)).stdout) as Record<string, any>[])[0]?.status).toBe('active');
  });
});

describe('one keys command: keys and control -- keys', () => {
  test('list and revoke print the same whichever of the two runs them', async () => {
    const factoryId = newFactoryId('cli');
    const [a, b] = [
      JSON.parse((await keys('create', '--factory', factoryId)).stdout),
      JSON.parse((await control('keys', 'create', '--factory', factoryId)).stdout),
    ];
    expect(Object.keys(a).sort()).toEqual(Object.keys(b).sort());
    const [listed, listedByControl] = [await keys('list', '--factory', factoryId), await control('keys', 'list', '--factory', factoryId)];
    expect(listed.stdout).toBe(listedByControl.stdout);
    expect((JSON.parse(listed.stdout) as { keyId: string }[]).map((key) => key.keyId)).toEqual([a.keyId, b.keyId]);
    const revoked = await keys('revoke', '--factory', factoryId, '--key', a.keyId);
    const revokedByControl = await control('keys', 'revoke', '--factory', factoryId, '--key', b.keyId);
    const shape = (stdout: string) => Object.keys(JSON.parse(stdout)).sort();
    expect(shape(revoked.stdout)).toEqual(shape(revokedByControl.stdout));
    expect((JSON.parse((await keys('list', '--factory', factoryId)).stdout) as Record<string, any>[]).map((key) => key.status)).toEqual(['revoked', 'revoked']);
  });

  test('a publishable key for servers too, with its DSN, from either', async () => {
    for (const run of [keys, (...args: string[]) => control('keys', ...args)]) {
      const created = JSON.parse(
        (await run('create', '--factory', newFactoryId('cli'), '--type', 'publishable', '--origin', 'https://app.example.com', '--servers')).stdout,
      );
      expect(created).toMatchObject({ servers: true, dsn: expect.stringMatching(/^http:\/\/[0-9a-f]{64}@localhost:\d+\/ingest\/sentry\/\d{15}$/) });
    }
  });
});

describe('the store the command works on', () => {
  test('a missing table is a one-line error that says what to do', async () => {
    const result = await runScriptInProcess('keys', ['list', '--factory', 'fac_x'], { DYNAMODB_ENDPOINT: endpoint(), KEYS_TABLE_NAME: 'no-such-table' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: table "no-such-table" does not exist at .*npm start/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  test('an endpoint where no DynamoDB answers is a one-line error', async () => {
    const result = await runScriptInProcess('keys', ['list', '--factory', 'fac_x'], { DYNAMODB_ENDPOINT: 'http://127.0.0.1:9' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: no DynamoDB answers at DYNAMODB_ENDPOINT=http:\/\/127.0.0.1:9/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
