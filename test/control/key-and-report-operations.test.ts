import { randomBytes } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { seedDemo, type Demo } from '../../tools/control-room/demo-data';
import { CONTROL_ROOM_ARN, loadControlHandler } from '../support/control';
import { newFactoryId, startLocalApi, tables, testDoc, type LocalApi } from '../support/local-api';

/**
 * The key and report operations of the control-room function (keys.*,
 * reports.*), through its function URL entry point on DynamoDB Local: the
 * answers, the errors in their own words, and the audit line (the caller's
 * principal, never a secret).
 */
const control = loadControlHandler({ KEYS_TABLE_NAME: tables.keys, REPORTS_TABLE_NAME: tables.reports, DEFAULT_RATE_LIMIT: '1234' });
let api: LocalApi;
let demo: Demo;

beforeAll(async () => {
  api = await startLocalApi();
  demo = await seedDemo({
    apiUrl: api.baseUrl,
    doc: testDoc(),
    tables,
    factoryId: newFactoryId('cradm'),
    mailDomain: `${randomBytes(4).toString('hex')}.example`,
  });
}, 60_000);
afterAll(() => api?.close());

const fac = () => demo.factoryId;

describe('keys', () => {
  test("keys.create issues a secret key with the stack's default rate limit; the audit line names the caller and the key, never the secret", async () => {
    const { status, body, lines } = await control.call({ operation: 'keys.create', factoryId: fac() });
    expect(status).toBe(200);
    expect(body).toMatchObject({
      key: expect.stringMatching(/^dfsk_/),
      keyId: expect.stringMatching(/^key_/),
      type: 'secret',
      status: 'active',
      rateLimit: 1234,
      factoryId: fac(),
    });
    const audit = lines.find((line) => line.message === 'control room') as Record<string, unknown>;
    expect(audit).toMatchObject({ operation: 'keys.create', principal: CONTROL_ROOM_ARN, keyId: body.keyId, status: 200 });
    expect(JSON.stringify(lines)).not.toContain(body.key);
  });

  test('keys.create makes a publishable key bound to normalized origins', async () => {
    const { status, body } = await control.call({ operation: 'keys.create', factoryId: fac(), type: 'publishable', origins: ['HTTPS://Shop.Example:443'] });
    expect([status, body.key.slice(0, 5), body.origins, body.rateLimit]).toEqual([200, 'dfpk_', ['https://shop.example'], 600]);
  });

  test.each([
    [{ type: 'publishable' }, 'a publishable key needs at least one origin (the website it is used on)'],
    [{ origins: ['https://a.example'] }, 'origins are only for publishable keys'],
    [{ type: 'publishable', origins: ['https://a.example/path'] }, /^origins: .*path/],
    [{ rateLimit: 0 }, 'rateLimit must be a whole number from 1 to 1000000'],
  ])("keys.create %j is a 400 in the operation's words", async (extra, error) => {
    const { status, body } = await control.call({ operation: 'keys.create', factoryId: fac(), ...extra });
    expect(status).toBe(400);
    expect(body.error).toEqual(typeof error === 'string' ? error : expect.stringMatching(error));
  });

  test('keys.create for the canary factory is a 400: it is reserved for the pre-traffic check and never gets a key', async () => {
    const { status, body } = await control.call({ operation: 'keys.create', factoryId: 'fac_canary' });
    expect(status).toBe(400);
    expect(body.error).toMatch(/^fac_canary is reserved for the pre-traffic check of deployments .*: no key is issued for it$/);
  });

  test("keys.list shows the factory's keys, the exposed one with its record", async () => {
    const { status, body } = await control.call({ operation: 'keys.list', factoryId: fac() });
    expect(status).toBe(200);
    expect(body.keys.filter((key: Record<string, unknown>) => key.exposed)).toEqual([
      expect.objectContaining({ type: 'secret', exposed: expect.objectContaining({ count: 1 }) }),
    ]);
    expect(JSON.stringify(body)).not.toMatch(/dfsk_|keyHash/);
  });

  test('keys.revoke revokes a key of the factory, and answers 404 for a key of another factory', async () => {
    const other = newFactoryId('cradm');
    const foreign = (await control.call({ operation: 'keys.create', factoryId: other })).body;
    const refused = await control.call({ operation: 'keys.revoke', factoryId: fac(), keyId: foreign.keyId });
    expect(refused).toMatchObject({ status: 404, body: { error: `no key ${foreign.keyId} in ${fac()}` } });
    const stillActive = (await control.call({ operation: 'keys.list', factoryId: other })).body.keys[0];
    expect(stillActive.status).toBe('active');
    const revoked = await control.call({ operation: 'keys.revoke', factoryId: other, keyId: foreign.keyId });
    expect(revoked).toMatchObject({ status: 200, body: { keyId: foreign.keyId, status: 'revoked', revokedAt: expect.any(String) } });
  });
});

describe('reports', () => {
  test('reports.events pages newest first with a cursor, and the pages together are every event once', async () => {
    const first = await control.call({ operation: 'reports.events', factoryId: fac(), limit: 2 });
    expect(first.status).toBe(200);
    const seen = [...first.body.events];
    let cursor = first.body.cursor as string | undefined;
    while (cursor) {
      const next = await control.call({ operation: 'reports.events', factoryId: fac(), limit: 2, cursor });
      seen.push(...next.body.events);
      cursor = next.body.cursor;
    }
    expect(seen.map((event) => event.eventId).sort()).toEqual([...demo.eventIds].sort());
    const received = seen.map((event) => event.receivedAt as string);
    expect(received).toEqual([...received].sort().reverse());
  });

  test('reports.events filters by type', async () => {
    const { body } = await control.call({ operation: 'reports.events', factoryId: fac(), type: 'bug_report' });
    expect(body.events.map((event: Record<string, unknown>) => event.type)).toEqual(['bug_report']);
  });

  test('a cursor of another factory is refused with 400', async () => {
    const { body } = await control.call({ operation: 'reports.events', factoryId: fac(), limit: 1 });
    const other = await control.call({ operation: 'reports.events', factoryId: newFactoryId('cradm'), cursor: body.cursor });
    expect(other).toMatchObject({ status: 400, body: { error: expect.stringMatching(/another factory/) } });
  });

  test('reports.event answers one event with its exception and stack; an unknown one is 404', async () => {
    const eventId = demo.eventIds[0] as string;
    const { status, body } = await control.call({ operation: 'reports.event', factoryId: fac(), eventId });
    expect(status).toBe(200);
    expect(body.event).toMatchObject({ eventId, exception: { type: 'TypeError', stack: expect.stringContaining('renderContact') } });
    expect(body.event.pk).toBeUndefined();
    const missing = await control.call({ operation: 'reports.event', factoryId: newFactoryId('cradm'), eventId });
    expect(missing.status).toBe(404);
  });

  test('reports.feature-requests lists them newest first', async () => {
    const { status, body } = await control.call({ operation: 'reports.feature-requests', factoryId: fac() });
    expect(status).toBe(200);
    expect(body.featureRequests.map((request: Record<string, unknown>) => request.title)).toEqual(['Export to Google Sheets', 'Dark mode for the dashboard']);
  });
});

test('a control room wired without the keys table answers 500 saying that key operations are not configured, and logs it', async () => {
  const deps = controlDependencies(testDoc(), tables, 'Test Platform');
  const answer = await handleControlRequest(deps, { operation: 'keys.list', factoryId: fac() }, { principal: CONTROL_ROOM_ARN });
  expect(answer).toMatchObject({
    status: 500,
    body: { error: 'key operations are not configured on this control room (no keys table)' },
    audit: { errorClass: 'ControlError', error: expect.stringMatching(/not configured/) },
  });
});
