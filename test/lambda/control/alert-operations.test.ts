import { DEPLOYED_POLICY } from '../../../lambda/alerts/address-policy';
import type { WebhookRequest } from '../../../lambda/alerts/webhook-sender';
import { handleControlRequest } from '../../../lambda/control/handle-request';
import type { ControlDependencies } from '../../../lambda/control/ports';
import { MemoryAlertStore } from '../../../lambda/infrastructure/memory/memory-alert-store';
import { CONTROL_CALLER, memoryControlRoom } from '../../support/control-memory';

/**
 * The alert operations on the in-memory alert store, a stack's address policy
 * (public HTTPS only), a resolver stub and a sender that records what it was
 * asked to send. Through the function on DynamoDB Local, with a real
 * receiver: test/control/alert-operations.test.ts.
 */
const room = memoryControlRoom();
const sent: WebhookRequest[] = [];
let answer = { ok: true, status: 204 };
let deps: ControlDependencies;
beforeEach(() => {
  sent.length = 0;
  answer = { ok: true, status: 204 };
  deps = {
    ...room.deps,
    alerts: {
      store: new MemoryAlertStore(),
      send: async (request) => {
        sent.push(request);
        return { ...answer, latencyMs: 12 };
      },
      policy: DEPLOYED_POLICY,
      resolve: async (hostname) => [{ address: hostname === 'internal.example.com' ? '10.0.0.5' : '93.184.215.14', family: 4 }],
      linkBase: 'https://control.example.com',
    },
  };
});
const call = (request: Record<string, unknown>) => handleControlRequest(deps, { factoryId: 'fac_alerts', ...request }, { principal: CONTROL_CALLER });
const add = async (url = 'https://hooks.example.com/in?token=abc') => (await call({ operation: 'alerts.add', url })).body as Record<string, any>;

describe('destinations', () => {
  test('alerts.add answers the destination and its secret once; the list never shows a secret', async () => {
    const added = await add();
    expect(added).toMatchObject({
      destinationId: expect.stringMatching(/^dst_[0-9a-f]{16}$/),
      secret: expect.stringMatching(/^whsec_/),
      status: 'enabled',
      types: 'all',
      createdBy: CONTROL_CALLER,
    });
    const listed = await call({ operation: 'alerts.list' });
    expect(listed.body.destinations).toEqual([expect.objectContaining({ destinationId: added.destinationId })]);
    expect(JSON.stringify(listed.body)).not.toContain('whsec_');
  });

  test("the audit names the destination's host, never its path, query or secret", async () => {
    const added = await call({ operation: 'alerts.add', url: 'https://hooks.example.com/in?token=abc' });
    expect(added.audit).toMatchObject({ host: 'hooks.example.com', destinationId: added.body.destinationId });
    expect(JSON.stringify(added.audit)).not.toMatch(/token=abc|whsec_/);
  });

  test('a stack refuses plain http and a host that resolves to a private address, in words', async () => {
    expect(await call({ operation: 'alerts.add', url: 'http://hooks.example.com/in' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^url: /) },
    });
    expect(await call({ operation: 'alerts.add', url: 'https://internal.example.com/in' })).toMatchObject({
      status: 400,
      body: { error: expect.stringMatching(/^url: .*10\.0\.0\.5/) },
    });
  });

  test('rotate gives a new secret and keeps the previous one valid for a while; disable keeps the reason, enable clears it; remove, then 404', async () => {
    const { destinationId, secret } = await add();
    const rotated = await call({ operation: 'alerts.rotate', destinationId });
    expect(rotated.body.secret).not.toBe(secret);
    expect(rotated.body.previousSecretValidUntil).toEqual(expect.any(String));
    expect((await call({ operation: 'alerts.disable', destinationId, reason: 'moving hosts' })).body).toMatchObject({
      status: 'disabled',
      disabled: { reason: 'moving hosts', by: CONTROL_CALLER },
    });
    expect((await call({ operation: 'alerts.enable', destinationId })).body).toMatchObject({ status: 'enabled' });
    expect((await call({ operation: 'alerts.remove', destinationId })).status).toBe(200);
    expect(await call({ operation: 'alerts.remove', destinationId })).toEqual(
      expect.objectContaining({ status: 404, body: { error: `no destination ${destinationId} in fac_alerts` } }),
    );
  });
});

describe('a test delivery', () => {
  test('is sent now, once, signed, with the link base given, and logged as a test', async () => {
    const { destinationId } = await add();
    const tested = await call({ operation: 'alerts.test', destinationId, type: 'issue.regressed' });
    expect(tested.body.delivery).toMatchObject({ type: 'issue.regressed', status: 'delivered', attempts: 1, httpStatus: 204, test: true });
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.body).data.link).toMatch(/^https:\/\/control\.example\.com\/f\/fac_alerts\/reports\/issues\//);
    expect(sent[0]!.headers['webhook-signature']).toMatch(/^v1,/);
    const log = await call({ operation: 'alerts.deliveries', destinationId });
    expect((log.body.deliveries as { test: boolean }[]).map((delivery) => delivery.test)).toEqual([true]);
  });

  test("a receiver's refusal is a failed delivery with the reason, never retried", async () => {
    const { destinationId } = await add();
    answer = { ok: false, status: 500 };
    expect((await call({ operation: 'alerts.test', destinationId })).body.delivery).toMatchObject({ status: 'failed', httpStatus: 500 });
    expect(sent).toHaveLength(1);
  });
});

describe('the spike settings', () => {
  test('configure changes the rule, checked, and records who; settings reads it back', async () => {
    const configured = await call({ operation: 'alerts.configure', spikeMultiple: 7 });
    expect(configured.body.settings).toMatchObject({ spikeMultiple: 7, updatedBy: CONTROL_CALLER });
    expect((await call({ operation: 'alerts.settings' })).body.settings).toMatchObject({ spikeMultiple: 7 });
    expect(await call({ operation: 'alerts.configure' })).toMatchObject({
      status: 400,
      body: { error: 'say what to change: spikeMultiple, spikeFloor, crashFreeThreshold or releaseMinSessions' },
    });
    expect((await call({ operation: 'alerts.configure', spikeMultiple: 1 })).status).toBe(400);
  });
});

test('a control room without the alerts table answers 500 saying so', async () => {
  deps = { ...room.deps };
  expect(await call({ operation: 'alerts.list' })).toMatchObject({
    status: 500,
    body: { error: expect.stringMatching(/alert operations are not configured/) },
  });
});
