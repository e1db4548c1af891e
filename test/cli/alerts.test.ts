import { Webhook } from 'standardwebhooks';
import { jsonLines, runScript, runScriptInProcess } from '../support/commands';
import { startReceiver, type Receiver } from '../support/alerts';
import { endpoint, newFactoryId } from '../support/local-api';

/**
 * `npm run alerts -- …` against the run's DynamoDB Local: the control
 * room's alert operations in the command itself, as with `npm start`
 * (loopback receivers allowed). Output and exit codes as the local contract
 * fixes them. The entry file runs in this process, but for its first call,
 * which runs as its own process as `npm run` does.
 */
const alerts = (...args: string[]) => runScriptInProcess('alerts', args, { DYNAMODB_ENDPOINT: endpoint() });
const alertsProcess = (...args: string[]) => runScript('alerts', args, { DYNAMODB_ENDPOINT: endpoint() });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

test('add prints the destination and its secret once; list shows it without the secret; test sends one example a Standard Webhooks library verifies; deliveries logs it', async () => {
  const factoryId = newFactoryId('clial');
  const added = await alertsProcess('add', '--factory', factoryId, '--url', receiver.url, '--type', 'issue.created', '--type', 'issue.regressed');
  expect(added.status).toBe(0);
  const destination = JSON.parse(added.stdout);
  expect(destination).toMatchObject({
    destinationId: expect.stringMatching(/^dst_/),
    secret: expect.stringMatching(/^whsec_/),
    types: ['issue.created', 'issue.regressed'],
  });

  const listed = await alerts('list', '--factory', factoryId);
  expect(jsonLines(listed.stdout)).toEqual([expect.objectContaining({ destinationId: destination.destinationId, url: receiver.url, status: 'enabled' })]);
  expect(listed.stdout).not.toContain('whsec_');

  const tested = await alerts('test', '--factory', factoryId, '--destination', destination.destinationId);
  expect(tested.status).toBe(0);
  expect(JSON.parse(tested.stdout)).toMatchObject({ status: 'delivered', attempts: 1, httpStatus: 204, test: true });
  const [received] = receiver.received.slice(-1);
  expect(new Webhook(destination.secret).verify(received!.body, received!.headers as Record<string, string>)).toMatchObject({
    type: 'issue.created',
    data: { factoryId, test: true },
  });

  const log = jsonLines((await alerts('deliveries', '--factory', factoryId)).stdout);
  expect(log).toEqual([expect.objectContaining({ type: 'issue.created', issueId: expect.any(String), status: 'delivered', attempts: 1 })]);
});

test('bad input: a usage error (exit 2) before anything connects; a refused URL or an unknown destination: one line, exit 1', async () => {
  const factoryId = newFactoryId('clibad');
  const noUrl = await alerts('add', '--factory', factoryId);
  expect([noUrl.status, noUrl.stderr.split('\n')[0]]).toEqual([2, 'error: add needs --url <URL>']);
  const badType = await alerts('add', '--factory', factoryId, '--url', receiver.url, '--type', 'issue.sneezed');
  expect([badType.status, badType.stderr.split('\n')[0]]).toEqual([
    2,
    'error: --type must be one of issue.created, issue.regressed, issue.spiking, issue.resolved, release.unhealthy, release.recovered, got "issue.sneezed"',
  ]);
  const badDestination = await alerts('remove', '--factory', factoryId, '--destination', 'nope');
  expect(badDestination.status).toBe(2);
  expect(badDestination.stderr).toContain('--destination must be a destination id');
  const privateUrl = await alerts('add', '--factory', factoryId, '--url', 'https://192.168.0.10/hook');
  expect(privateUrl.status).toBe(1);
  expect(privateUrl.stderr.trim().split('\n').slice(-1)[0]).toBe(
    'error: url: 192.168.0.10 is a private address (192.168.0.0/16): webhooks go to public addresses only',
  );
  const unknown = await alerts('disable', '--factory', factoryId, '--destination', 'dst_0000000000000000', '--reason', 'x');
  expect([unknown.status, unknown.stderr.trim().split('\n').slice(-1)[0]]).toEqual([1, `error: no destination dst_0000000000000000 in ${factoryId}`]);
});

test('settings changes the release rule: a decimal threshold and a minimum of sessions, read back; a threshold that is no number or out of range is a usage error', async () => {
  const factoryId = newFactoryId('clirel');
  const changed = await alerts('settings', '--factory', factoryId, '--crash-free-threshold', '0.95', '--release-min-sessions', '50');
  expect(changed.status).toBe(0);
  expect(JSON.parse(changed.stdout).settings).toMatchObject({ crashFreeThreshold: 0.95, releaseMinSessions: 50, spikeMultiple: 10 });
  expect(JSON.parse((await alerts('settings', '--factory', factoryId)).stdout).settings).toMatchObject({ crashFreeThreshold: 0.95, releaseMinSessions: 50 });
  const word = await alerts('settings', '--factory', factoryId, '--crash-free-threshold', 'high');
  expect([word.status, word.stderr.split('\n')[0]]).toEqual([2, 'error: --crash-free-threshold must be a number such as 0.99, got "high"']);
  const over = await alerts('settings', '--factory', factoryId, '--crash-free-threshold', '1.5');
  expect([over.status, over.stderr.split('\n')[0]]).toEqual([
    2,
    'error: --crash-free-threshold must be a number from 0.5 to 1 (a share of sessions: 0.99 is 99 %)',
  ]);
});
