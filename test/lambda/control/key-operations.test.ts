import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { ControlDependencies, KeyAdminPort, KeyView, NewKey } from '../../../lambda/control/ports';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/**
 * The key operations over a key admin that records what it is asked (the
 * DynamoDB one, through the function: test/control/key-and-report-operations.test.ts;
 * through both commands: test/cli/keys.test.ts).
 */
const room = memoryControlRoom();
let issued: NewKey[];
let keys: KeyView[];
let deps: ControlDependencies;

const admin: KeyAdminPort = {
  create: async (options) => {
    issued.push(options);
    const view: KeyView = {
      keyId: `key_${String(keys.length).padStart(16, '0')}`,
      factoryId: options.factoryId,
      type: options.type,
      status: 'active',
      rateLimit: options.rateLimit ?? (options.type === 'secret' ? 30_000 : 600),
      hint: 'abcd',
      createdAt: '2026-11-21T09:00:00.000Z',
      ...(options.origins ? { origins: options.origins } : {}),
      ...(options.type === 'publishable' ? { servers: options.servers === true } : {}),
    };
    keys.push(view);
    return { ...view, key: `${options.type === 'secret' ? 'dfsk' : 'dfpk'}_secret` };
  },
  list: async (factoryId) => keys.filter((key) => key.factoryId === factoryId),
  revoke: async (keyId, now, factoryId) => {
    const key = keys.find((candidate) => candidate.keyId === keyId && candidate.factoryId === factoryId);
    if (!key) return undefined;
    key.status = 'revoked';
    key.revokedAt ??= now.toISOString();
    return key;
  },
};

beforeEach(() => {
  issued = [];
  keys = [];
  deps = { ...room.deps, keys: { admin, defaultRateLimit: 12_000 } };
});
const call = (request: Record<string, unknown>) => handleControlRequest(deps, { factoryId: 'fac_keys', ...request }, { principal: CONTROL_CALLER });

describe('keys.create', () => {
  test("a secret key by default, with the stack's default rate limit; its secret in the answer, never in the audit", async () => {
    const created = await call({ operation: 'keys.create' });
    expect(created.body).toMatchObject({ key: 'dfsk_secret', type: 'secret', rateLimit: 12_000 });
    expect(issued[0]).toMatchObject({ factoryId: 'fac_keys', type: 'secret', rateLimit: 12_000 });
    expect(created.audit).toMatchObject({ keyId: created.body.keyId, type: 'secret', rateLimit: 12_000 });
    expect(JSON.stringify(created.audit)).not.toContain('dfsk_');
  });

  test('a publishable key with its origins normalized; servers too when asked', async () => {
    const created = await call({ operation: 'keys.create', type: 'publishable', origins: ['https://Shop.Example.com:443/'], servers: true });
    expect(created.status).toBe(200);
    expect(issued[0]).toMatchObject({ type: 'publishable', origins: ['https://shop.example.com'], servers: true, rateLimit: undefined });
    expect(created.audit).toMatchObject({ origins: 1, servers: true });
  });

  test.each([
    [{ type: 'publishable' }, 'a publishable key needs at least one origin (the website it is used on)'],
    [{ origins: ['https://a.example.com'] }, 'origins are only for publishable keys'],
    [{ servers: true }, 'servers is only for publishable keys (a secret key is for servers already)'],
    [{ type: 'publishable', origins: ['*'] }, /^origins: /],
    [{ type: 'admin' }, 'type must be "secret" or "publishable"'],
  ])('refuses %j in its own words (400), issuing nothing', async (fields, error) => {
    const refused = await call({ operation: 'keys.create', ...fields });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual(typeof error === 'string' ? error : expect.stringMatching(error));
    expect(issued).toEqual([]);
  });

  test('refuses the canary factory: it never gets a key', async () => {
    const refused = await handleControlRequest(deps, { operation: 'keys.create', factoryId: 'fac_canary' }, { principal: CONTROL_CALLER });
    expect(refused).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^fac_canary is reserved for the pre-traffic check/) } });
  });
});

describe('keys.list and keys.revoke', () => {
  test("list shows the factory's keys and counts them in the audit", async () => {
    await call({ operation: 'keys.create' });
    expect(await call({ operation: 'keys.list' })).toMatchObject({
      status: 200,
      body: { factoryId: 'fac_keys', keys: [{ type: 'secret' }] },
      audit: { count: 1 },
    });
  });

  test("revoke revokes a key of the factory; another factory's key, or none, is 404", async () => {
    const { keyId } = (await call({ operation: 'keys.create' })).body as { keyId: string };
    expect(await call({ operation: 'keys.revoke', keyId })).toMatchObject({ status: 200, body: { keyId, status: 'revoked' }, audit: {} });
    const other = await handleControlRequest(deps, { operation: 'keys.revoke', factoryId: 'fac_other', keyId }, { principal: CONTROL_CALLER });
    expect(other).toMatchObject({ status: 404, body: { error: `no key ${keyId} in fac_other` } });
  });
});

test('a control room without the keys table answers 500 saying so', async () => {
  deps = { ...room.deps };
  expect(await call({ operation: 'keys.list' })).toMatchObject({ status: 500, body: { error: expect.stringMatching(/key operations are not configured/) } });
});
