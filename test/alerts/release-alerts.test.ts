import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, SQSEvent } from 'aws-lambda';
import { LOCAL_POLICY } from '../../lambda/alerts/address-policy';
import { alertStoreOf } from '../../lambda/alerts/alerts-wiring';
import { createDelivererHandler } from '../../lambda/alerts/deliverer';
import { createNotifierHandler } from '../../lambda/alerts/notifier';
import type { DeliveryMessage } from '../../lambda/alerts/ports';
import { webhookSender } from '../../lambda/alerts/webhook-sender';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { releaseHourKey } from '../../lambda/infrastructure/store/reports/release-items';
import { DynamoReleaseStore } from '../../lambda/infrastructure/store/reports/release-writes';
import { issueChangeOf } from '../../lambda/infrastructure/store/reports/stream-images';
import type { ReachedStatus } from '../../lambda/ingest/sessions/session-carry';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import { countSessions } from '../../lambda/ingest/tally/count-sessions';
import type { SequencedSessionCount } from '../../lambda/ingest/tally/ports';
import { isIssueItemWrite } from '../../local/harness/streams/consumers';
import { CapturingQueue, startReceiver, streamEvent, streamRecord, type Receiver } from '../support/alerts';
import { newFactoryId, tables, testDoc } from '../support/local-api';

/**
 * Release alerts end to end on DynamoDB Local (docs/alerts.md#release-alerts): the tally's session counts written
 * by the release store as the tally writes them, each write of the release's hour item handed to the notifier as
 * the stream shows it (its images before and after, read from the table), the queued deliveries sent by the
 * deliverer to a receiver on 127.0.0.1 that checks each signature with the Standard Webhooks library.
 */
const doc = testDoc();
const store = alertStoreOf(doc, tables.alerts);
const silent = new JsonLogger({ service: 'test', level: 'SILENT' });
const RELEASE = 'web@3.1.0';
const ENVIRONMENT = 'production';

let receivers: Receiver[] = [];
afterEach(async () => {
  await Promise.all(receivers.map((receiver) => receiver.close()));
  receivers = [];
});

async function control(request: Record<string, unknown>) {
  const deps = controlDependencies(doc, tables, 'platform', { alerts: tables.alerts, alertPolicy: LOCAL_POLICY });
  const answer = await handleControlRequest(deps, request, { principal: 'test:operator' });
  return { status: answer.status, body: answer.body as Record<string, any> };
}

/** A factory with one destination taking every alert, and its receiver. */
async function factoryWithReceiver(label: string) {
  const factoryId = newFactoryId(label);
  const receiver = await startReceiver();
  receivers.push(receiver);
  const { status, body } = await control({ operation: 'alerts.add', factoryId, url: receiver.url });
  expect(status).toBe(200);
  return { factoryId, receiver, secret: body.secret as string };
}

/**
 * The release's current hour, counted by the tally's release store from one shard's records, and the notifier
 * and deliverer behind it. `batch` counts `started` sessions (and `crashed` of them crashed) as records after the
 * shard's last; each write of the hour item comes back as its stream record; `again` hands a batch over a second time.
 */
function releaseRun(factoryId: string) {
  const hour = Math.floor(Date.now() / 3_600_000);
  const counts = new DynamoReleaseStore(doc, tables.reports);
  const queue = new CapturingQueue();
  const notifier = createNotifierHandler({ store, queue, linkBase: 'http://127.0.0.1:4000' }, issueChangeOf, silent);
  const deliverer = createDelivererHandler({ store, queue: new CapturingQueue(), send: webhookSender({ policy: LOCAL_POLICY }), random: () => 0 }, silent);
  const key = { pk: releaseHourKey(factoryId, { environment: ENVIRONMENT, release: RELEASE }, hour) };
  const hourItem = async () => (await doc.send(new GetCommand({ TableName: tables.reports, Key: key, ConsistentRead: true }))).Item;
  let next = 1000;
  // A batch's sessions as an SDK's aggregate: one record per status, with its count and a user it names.
  const record = (status: ReachedStatus, count: number): SequencedSessionCount => ({
    factoryId,
    release: RELEASE,
    environment: ENVIRONMENT,
    hour,
    user: `user${next}`,
    status,
    count,
    seq: padSequence(String(next++)),
  });
  let writes = 0;
  const write = async (batch: SequencedSessionCount[]) => {
    const before = await hourItem();
    await countSessions(counts, 'shard0', batch);
    const made = streamRecord(before, await hourItem());
    // The stream's time of the write (whole seconds): each write of the test a second after the one before.
    writes += 1;
    return { ...made, dynamodb: { ...made.dynamodb, ApproximateCreationDateTime: hour * 3600 + writes } };
  };
  return {
    batch: (started: number, crashed: number): SequencedSessionCount[] => [record('started', started), ...(crashed > 0 ? [record('crashed', crashed)] : [])],
    write,
    notify: (...records: DynamoDBRecord[]) => notifier(streamEvent(...records)),
    queued: () => queue.take(),
    deliver: async (messages: { message: DeliveryMessage }[]) => {
      for (const { message } of messages)
        await deliverer({ Records: [{ messageId: 'm', body: JSON.stringify(message satisfies DeliveryMessage) }] } as SQSEvent);
    },
    hourStart: new Date(hour * 3_600_000).toISOString(),
  };
}

describe('release.unhealthy and release.recovered', () => {
  test('a release whose hour crashes past the threshold alerts once, signed; redelivered batches and records, or two notifiers at once, never alert again; its recovery alerts once', async () => {
    const { factoryId, receiver, secret } = await factoryWithReceiver('relbad');
    const run = releaseRun(factoryId);

    // 60 sessions, 20 of them crashed: under the default minimum of 100 sessions, nothing.
    const few = await run.write(run.batch(60, 20));
    // npm start hands the notifier these records as the stack's filter does (lib/alerts.ts).
    expect(isIssueItemWrite(few)).toBe(true);
    expect(await run.notify(few)).toEqual({ batchItemFailures: [] });
    expect(run.queued()).toHaveLength(0);

    // 60 more, none crashed: 120 sessions, 20 crashed, 83 % crash-free, under 99 %: one alert.
    const batch = run.batch(60, 0);
    const unhealthy = await run.write(batch);
    // The tally handed the same batch again (Lambda retried it): the counters do not move, the item is as it was.
    const redelivered = await run.write(batch);
    expect(redelivered.dynamodb?.NewImage).toEqual(unhealthy.dynamodb?.NewImage);
    const unhealthyAt = new Date(Number(unhealthy.dynamodb?.ApproximateCreationDateTime) * 1000).toISOString();
    await run.notify(unhealthy, unhealthy, redelivered);
    await Promise.all([run.notify(unhealthy), run.notify(unhealthy)]);
    const unhealthyMessages = run.queued();
    expect(unhealthyMessages).toHaveLength(1);
    await run.deliver(unhealthyMessages);

    // Still unhealthy in later batches of the hour: no second alert for the hour.
    await run.notify(await run.write(run.batch(10, 2)));
    expect(run.queued()).toHaveLength(0);

    // 4,000 sessions more, none crashed: 4,130 with 22 crashed, 99.47 % crash-free: recovered, once.
    const recovered = await run.write(run.batch(4000, 0));
    await run.notify(recovered, recovered);
    await Promise.all([run.notify(recovered), run.notify(recovered)]);
    const recoveredMessages = run.queued();
    expect(recoveredMessages).toHaveLength(1);
    await run.deliver(recoveredMessages);

    expect(receiver.received).toHaveLength(2);
    expect(receiver.verifiedWith(secret)).toHaveLength(2);
    const [first, second] = receiver.received.map((entry) => JSON.parse(entry.body));
    const link = `http://127.0.0.1:4000/f/${factoryId}/reports/releases?release=web%403.1.0&environment=production`;
    expect(first).toEqual({
      type: 'release.unhealthy',
      timestamp: unhealthyAt,
      data: {
        factoryId,
        release: RELEASE,
        environment: ENVIRONMENT,
        hourStart: run.hourStart,
        crashFreeSessions: 1 - 20 / 120,
        sessions: 120,
        crashed: 20,
        threshold: 0.99,
        minSessions: 100,
        link,
      },
    });
    expect(second).toMatchObject({
      type: 'release.recovered',
      data: { release: RELEASE, environment: ENVIRONMENT, sessions: 4130, crashed: 22, crashFreeSessions: 1 - 22 / 4130, threshold: 0.99 },
    });
    // Counts only: no user the sessions named.
    expect(receiver.received.map((entry) => entry.body).join('\n')).not.toMatch(/user\d/);

    const log = await control({ operation: 'alerts.deliveries', factoryId });
    expect(log.body.deliveries).toHaveLength(2);
    for (const delivery of log.body.deliveries) {
      expect(delivery).toMatchObject({ release: RELEASE, environment: ENVIRONMENT, status: 'delivered', attempts: 1 });
      expect(delivery.issueId).toBeUndefined();
    }
    expect(log.body.deliveries.map((delivery: { type: string }) => delivery.type)).toEqual(['release.recovered', 'release.unhealthy']);
  });

  test('an hour that stays healthy from its minimum on alerts nothing, and a recovery needs an unhealthy spell first', async () => {
    const { factoryId, receiver } = await factoryWithReceiver('relgood');
    const run = releaseRun(factoryId);
    await run.notify(await run.write(run.batch(150, 1)));
    await run.notify(await run.write(run.batch(150, 0)));
    expect(run.queued()).toHaveLength(0);
    expect(receiver.received).toHaveLength(0);
  });

  test("the factory's threshold and minimum, set through the control room, are the ones applied; a threshold out of range is refused saying why", async () => {
    const { factoryId, receiver } = await factoryWithReceiver('relset');
    expect(await control({ operation: 'alerts.configure', factoryId, crashFreeThreshold: 1.5 })).toEqual({
      status: 400,
      body: { error: 'crashFreeThreshold must be a number from 0.5 to 1 (a share of sessions: 0.99 is 99 %)' },
    });
    const configured = await control({ operation: 'alerts.configure', factoryId, crashFreeThreshold: 0.9, releaseMinSessions: 10 });
    expect(configured.body.settings).toMatchObject({ crashFreeThreshold: 0.9, releaseMinSessions: 10, spikeMultiple: 10 });

    const run = releaseRun(factoryId);
    // 20 sessions, 1 crashed: 95 %, unhealthy by the defaults' 99 % were it not under their 100 sessions; healthy at 90 %.
    await run.notify(await run.write(run.batch(20, 1)));
    expect(run.queued()).toHaveLength(0);
    // 2 more crashed of 2 more sessions: 3 of 22, 86 %: under 90 %.
    await run.notify(await run.write(run.batch(2, 2)));
    const messages = run.queued();
    expect(messages).toHaveLength(1);
    await run.deliver(messages);
    expect(JSON.parse(receiver.received[0]?.body ?? '{}')).toMatchObject({
      type: 'release.unhealthy',
      data: { sessions: 22, crashed: 3, threshold: 0.9, minSessions: 10 },
    });
  });
});
