import type { DynamoDBRecord } from 'aws-lambda';
import { startLocalAlerts, type LocalAlerts } from '../../local/harness/alerts/local-alerts';
import { alertConsumer, isIssueItemWrite } from '../../local/harness/streams/consumers';
import { startStreamPoller, type StreamPoller } from '../../local/harness/streams/stream-poller';
import { createDynamoClient, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { startReceiver, type Receiver } from '../support/alerts';
import { randomClient, validEvent } from '../support/ingest';
import {
  issuePublishableKey,
  newFactoryId,
  UNHURRIED_ADAPTER,
  realDependencies,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  UNHURRIED,
  endpoint,
  type LocalApi,
} from '../support/local-api';
import { tallied } from '../support/tally';
import { until } from '../support/until';

/**
 * Exactly once across containers: two ingest hosts (each its own handler
 * and dependencies, as two Lambda containers) take the first events of a new
 * bug at the same time; the run's tally counts them into one issue; the
 * alert notifier, reading the same stream as `npm start` runs it, makes one
 * "issue.created" delivery, and its receiver gets one POST.
 */
const SITE = 'https://shop.example.com';
let hosts: LocalApi[] = [];
let receiver: Receiver;
let alerts: LocalAlerts;
let poller: StreamPoller;
const factoryId = newFactoryId('al2c');
const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: endpoint() });

beforeAll(async () => {
  // No timeout on the containers' path: on a loaded machine a slow DynamoDB Local must not become a 503 here.
  const host = () => startLocalHost(realIngestDependencies({}, UNHURRIED), realDependencies(UNHURRIED), UNHURRIED_ADAPTER);
  hosts = await Promise.all([host(), host()]);
  receiver = await startReceiver();
  // A receiver in this busy process may answer late: a sender's timeout there would retry (and duplicate) what arrived.
  // Deliveries other files left pending in the run's one table are not this runner's to resume (npm start's would).
  alerts = await startLocalAlerts(testDoc(), tables.alerts, { sendTimeoutMs: 120_000, resumePending: false });
  const consumer = alertConsumer(alerts.notifier);
  // This file's factory only: the run's other files write issues on the same stream.
  const ours = (record: DynamoDBRecord) => isIssueItemWrite(record) && (record.dynamodb?.Keys?.pk?.S ?? '').startsWith(`issue#${factoryId}#`);
  poller = await startStreamPoller({ client, endpoint: endpoint(), tableName: tables.reports, consumers: [{ ...consumer, accepts: ours }], pollMs: 250 });
}, 60_000);
afterAll(async () => {
  await poller?.stop();
  alerts?.stop();
  await Promise.all([...hosts.map((host) => host.close()), receiver?.close()]);
  client.destroy();
});

test('concurrent first events of a new bug through two containers give one issue.created delivery', async () => {
  const { key } = await issuePublishableKey(factoryId, [SITE]);
  const added = await fetchAdd();
  const requests = hosts.flatMap((host) =>
    Array.from({ length: 10 }, () =>
      host.request('POST', '/ingest/v1/events', {
        headers: { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events: [validEvent({ message: 'TypeError: checkout is undefined' })] }),
        // A visitor each, as a storm of pages is: the per-address limit is not what this test is about.
        localAddress: randomClient(),
      }),
    ),
  );
  const answers = await Promise.all(requests);
  expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(202));
  await tallied();
  await poller.drain(60_000);
  // Bounds, not expectations: a loaded machine may take long to get there; what is asserted is what arrives.
  await until('the delivery', () => (receiver.received.length > 0 ? true : undefined), 120_000);
  // The notifier has seen every record of the issue (drained), and every delivery it queued has been made.
  await until('no delivery queued or under way', () => (alerts.queue.pending === 0 ? true : undefined), 120_000);
  const bodies = receiver.verifiedWith(added.secret).map((entry) => JSON.parse(entry.body) as { type: string; data: { count: number } });
  expect(bodies.map((body) => body.type)).toEqual(['issue.created']);
  expect(receiver.received).toHaveLength(1);
}, 360_000);

/**
 * A destination for the factory's new-issue alerts, through the alert store
 * the control room uses. New issues only: 20 events in one 5-minute bucket
 * reach the default spike floor, so a destination of every type would also
 * (rightly) get one issue.spiking, which test/alerts/npm-start.test.ts covers.
 */
async function fetchAdd(): Promise<{ secret: string }> {
  const { controlDependencies } = await import('../../lambda/control/control-room-wiring');
  const { handleControlRequest } = await import('../../lambda/control/handle-request');
  const { LOCAL_POLICY } = await import('../../lambda/alerts/address-policy');
  const deps = controlDependencies(testDoc(), tables, 'platform', { alerts: tables.alerts, alertPolicy: LOCAL_POLICY });
  const answer = await handleControlRequest(deps, { operation: 'alerts.add', factoryId, url: receiver.url, types: ['issue.created'] }, { principal: 'test' });
  expect(answer.status).toBe(200);
  return { secret: String(answer.body.secret) };
}
