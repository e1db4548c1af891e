import { loadControlHandler, CONTROL_ROOM_ARN } from '../support/control';
import { startReceiver, type Receiver } from '../support/alerts';
import { newFactoryId, tables } from '../support/local-api';

/**
 * The alert operations of the control-room function (alerts.*), through its
 * function URL entry point on DynamoDB Local, as a stack runs them (public
 * destinations only) and as `npm start`'s commands do (loopback allowed):
 * the answers, the errors in their own words, and the audit line (who did
 * what to which destination; never a secret, never a URL's path or query).
 */
const deployed = loadControlHandler({ ALERTS_TABLE_NAME: tables.alerts });
const local = loadControlHandler({ ALERTS_TABLE_NAME: tables.alerts, ALERTS_ALLOW_LOOPBACK: 'true' });
const auditOf = (lines: Record<string, unknown>[]) => lines.find((line) => line.message === 'control room') as Record<string, unknown>;

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

test("alerts.add answers the destination and its secret once; the audit line names the caller, the destination and its host, never the secret or the URL's token", async () => {
  const factoryId = newFactoryId('caadd');
  const url = `${receiver.url}?token=receiver-token-123`;
  const { status, body, lines } = await local.call({ operation: 'alerts.add', factoryId, url, types: ['issue.created'], description: 'on-call' });
  expect(status).toBe(200);
  expect(body).toMatchObject({
    destinationId: expect.stringMatching(/^dst_[0-9a-f]{16}$/),
    secret: expect.stringMatching(/^whsec_/),
    url,
    types: ['issue.created'],
    status: 'enabled',
    createdBy: CONTROL_ROOM_ARN,
  });
  expect(auditOf(lines)).toMatchObject({
    operation: 'alerts.add',
    factoryId,
    principal: CONTROL_ROOM_ARN,
    destinationId: body.destinationId,
    host: `127.0.0.1:${receiver.port}`,
    status: 200,
  });
  const logged = JSON.stringify(lines);
  expect(logged).not.toContain(body.secret);
  expect(logged).not.toContain('receiver-token-123');

  const list = await local.call({ operation: 'alerts.list', factoryId });
  expect(list.body.destinations).toHaveLength(1);
  expect(JSON.stringify(list.body)).not.toContain('whsec_');
  expect(list.body.settings).toEqual({ spikeMultiple: 10, spikeFloor: 20, crashFreeThreshold: 0.99, releaseMinSessions: 100 });
});

test('a stack refuses a destination on a private, loopback or metadata address, and plain http; npm start takes a loopback receiver', async () => {
  const factoryId = newFactoryId('caref');
  for (const [url, problem] of [
    ['https://10.0.0.8/hook', '10.0.0.8 is a private address'],
    ['https://[::ffff:169.254.169.254]/hook', 'cloud metadata'],
    ['https://127.0.0.1/hook', 'loopback'],
    ['http://203.0.113.9/hook', 'must use https://'],
  ] as const) {
    const { status, body, lines } = await deployed.call({ operation: 'alerts.add', factoryId, url });
    expect([status, body.error]).toEqual([400, expect.stringContaining(problem)]);
    expect(auditOf(lines)).toMatchObject({ operation: 'alerts.add', status: 400 });
  }
  expect((await local.call({ operation: 'alerts.add', factoryId, url: receiver.url })).status).toBe(200);
});

test('alerts.test sends one signed example now and logs it; rotate gives a new secret, and both secrets sign for a day', async () => {
  const factoryId = newFactoryId('catest');
  const added = await local.call({ operation: 'alerts.add', factoryId, url: receiver.url });
  const destinationId = added.body.destinationId as string;
  const before = receiver.received.length;
  const tested = await local.call({ operation: 'alerts.test', factoryId, destinationId, type: 'issue.regressed' });
  expect(tested.body.delivery).toMatchObject({ status: 'delivered', attempts: 1, httpStatus: 204, test: true, type: 'issue.regressed' });
  expect(auditOf(tested.lines)).toMatchObject({ operation: 'alerts.test', destinationId, outcome: 'delivered', httpStatus: 204 });
  expect(receiver.received.slice(before).map((entry) => JSON.parse(entry.body).data.test)).toEqual([true]);

  const rotated = await local.call({ operation: 'alerts.rotate', factoryId, destinationId });
  expect(rotated.body.secret).toMatch(/^whsec_/);
  expect(rotated.body.secret).not.toBe(added.body.secret);
  expect(JSON.stringify(rotated.lines)).not.toContain(rotated.body.secret);
  await local.call({ operation: 'alerts.test', factoryId, destinationId });
  const last = receiver.received.slice(-1);
  expect(receiver.verifiedWith(added.body.secret).filter((entry) => last.includes(entry))).toHaveLength(1);
  expect(receiver.verifiedWith(rotated.body.secret).filter((entry) => last.includes(entry))).toHaveLength(1);

  const log = await local.call({ operation: 'alerts.deliveries', factoryId, destinationId, limit: 1 });
  expect(log.body.deliveries).toHaveLength(1);
  expect(log.body.cursor).toEqual(expect.any(String));
  const rest = await local.call({ operation: 'alerts.deliveries', factoryId, destinationId, limit: 5, cursor: log.body.cursor });
  expect(rest.body.deliveries).toHaveLength(1);
  expect(rest.body.cursor).toBeUndefined();
});

test('disable keeps the reason and who gave it; enable clears it; remove, then the destination is gone (404)', async () => {
  const factoryId = newFactoryId('cadis');
  const { body } = await local.call({ operation: 'alerts.add', factoryId, url: receiver.url });
  const disabled = await local.call({ operation: 'alerts.disable', factoryId, destinationId: body.destinationId, reason: 'receiver moved' });
  expect(disabled.body).toMatchObject({ status: 'disabled', disabled: { reason: 'receiver moved', by: CONTROL_ROOM_ARN } });
  expect((await local.call({ operation: 'alerts.enable', factoryId, destinationId: body.destinationId })).body).toMatchObject({ status: 'enabled' });
  expect((await local.call({ operation: 'alerts.remove', factoryId, destinationId: body.destinationId })).status).toBe(200);
  const gone = await local.call({ operation: 'alerts.remove', factoryId, destinationId: body.destinationId });
  expect([gone.status, gone.body.error]).toEqual([404, `no destination ${body.destinationId} in ${factoryId}`]);
});

test('a factory has at most 10 destinations, even when adds race', async () => {
  const factoryId = newFactoryId('camax');
  const answers = await Promise.all(Array.from({ length: 14 }, () => local.call({ operation: 'alerts.add', factoryId, url: receiver.url })));
  expect(answers.filter((answer) => answer.status === 200)).toHaveLength(10);
  expect(answers.filter((answer) => answer.status === 400).map((answer) => answer.body.error)).toEqual(
    Array(4).fill(`${factoryId} has 10 destinations, the most it may have: remove one first`),
  );
  expect((await local.call({ operation: 'alerts.list', factoryId })).body.destinations).toHaveLength(10);
});

test('alerts.configure changes the spike rule, checked; alerts.settings reads it back', async () => {
  const factoryId = newFactoryId('caset');
  const bad = await local.call({ operation: 'alerts.configure', factoryId, spikeMultiple: 1 });
  expect([bad.status, bad.body.error]).toEqual([400, 'spikeMultiple must be a whole number from 2 to 1000']);
  const set = await local.call({ operation: 'alerts.configure', factoryId, spikeFloor: 50 });
  expect(set.body.settings).toMatchObject({ spikeMultiple: 10, spikeFloor: 50, updatedBy: CONTROL_ROOM_ARN });
  expect(auditOf(set.lines)).toMatchObject({ operation: 'alerts.configure', spikeFloor: 50 });
  expect((await local.call({ operation: 'alerts.settings', factoryId })).body.settings).toMatchObject({ spikeMultiple: 10, spikeFloor: 50 });
});
