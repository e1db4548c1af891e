import type { DynamoDBRecord } from 'aws-lambda';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoReleaseReader } from '../../lambda/infrastructure/store/reports/release-reader';
import { limiterKey } from '../../lambda/infrastructure/store/schema';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { distinctCount } from '../../lambda/kernel/distinct-sketch';
import { reportStreamConsumers } from '../../local/harness/streams/consumers';
import { startStreamPoller } from '../../local/harness/streams/stream-poller';
import { sendAsTheSdk } from '../../tools/storm/sdk-retry';
import { envelopeUrlOf } from '../../tools/storm/sentry-page';
import { envelopeOf, expectedOf, judgeCounters, seeded, stormTraffic, zero, type StormRequest } from '../../tools/storm/session-traffic';
import {
  issuePublishableKey,
  newFactoryId,
  realDependencies,
  realIngestDependencies,
  startLocalHost,
  tables,
  testDoc,
  UNHURRIED,
  UNHURRIED_ADAPTER,
  type LocalApi,
} from '../support/local-api';
import { startTestProxy } from '../support/semantics';
import { steppedClock } from '../support/stepped-clock';
import { tallied } from '../support/tally';

/**
 * The session storm's small version (docs/capacity.md#the-session-storm; `npm run bench:storm -- --sessions` is the
 * full one): Sentry `session` updates and `sessions` aggregates of one release's hour, through two containers, on
 * the 1:50 scale model (the semantics proxy at 20 write units a second per partition), counted by a tally of its own
 * through the proxy beside the run's (two consumers of one stream). Every answer is 200 or a 429 with Retry-After;
 * nothing acknowledged is lost, no status of a session counted twice, and the users (fewer than 100) are exact.
 */
const SITE = 'https://sessions.example.com';
const WIDE = { limit: 1e6, periodMs: 60_000, burst: 1e5 };

test("a session storm on the 1:50 scale model: nothing acknowledged is lost from its release's hour, no session status is counted twice, never a 5xx, the users exact", async () => {
  const factoryId = newFactoryId('sesstorm');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE], { rateLimit: 1_000_000 });
  // The partitions' buckets refill, and the containers' leases run, on a clock that moves only while every sender
  // waits out its Retry-After (as the ceiling test of storm.test.ts): this machine's speed changes nothing of what
  // the partitions take between two tries.
  const clock = steppedClock();
  const proxy = await startTestProxy({ clock: clock.now, holdMs: 5, ceiling: 20 });
  const through = { endpoint: proxy.endpoint, ...UNHURRIED };
  const start = () =>
    startLocalHost(
      { ...realIngestDependencies({ addressLimits: { requests: WIDE, featureRequests: WIDE } }, through) },
      realDependencies(through),
      UNHURRIED_ADAPTER,
    );
  const containers: LocalApi[] = [await start(), await start()];
  const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: proxy.endpoint });
  // This factory's limiter records only: the run's other files write on the same stream, and their tally is the run's.
  const ours = (record: DynamoDBRecord) => (record.dynamodb?.Keys?.pk?.S ?? '').startsWith(limiterKey(keyId, ''));
  const consumers = reportStreamConsumers(documentClientOf(client), tables).map((consumer) => ({
    ...consumer,
    accepts: (record: DynamoDBRecord) => consumer.accepts(record) && ours(record),
  }));
  const tally = await startStreamPoller({ client, endpoint: proxy.endpoint, tableName: tables.reports, consumers, pollMs: 250 });
  try {
    const traffic = stormTraffic({
      pages: 90,
      users: 40,
      pagesPerAggregate: 15,
      release: 'shop@1.0.0',
      hourMs: Math.floor(clock.now() / 3_600_000) * 3_600_000,
      random: seeded(52),
    });
    const sent: StormRequest[] = [];
    const acknowledged: StormRequest[] = [];
    const refusals: unknown[] = [];
    const send = async (request: StormRequest, api: LocalApi) => {
      const path = new URL(envelopeUrlOf(dsnFor(api.baseUrl, key, keyId)));
      const outcome = await sendAsTheSdk(
        async () => {
          // Every try: a try answered 429 may have landed its sessions before a later write of the request was refused
          // (the ride comes first), and an aggregate counts once per landed write; a status, once whatever the tries.
          sent.push(request);
          const res = await clock.busy(() =>
            api.request('POST', `${path.pathname}${path.search}`, {
              headers: { Origin: SITE, 'Content-Type': 'text/plain;charset=UTF-8' },
              body: envelopeOf(request.item),
              localAddress: `127.61.${Math.floor(request.sender / 250)}.${1 + (request.sender % 250)}`,
            }),
          );
          const retryAfter = typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null;
          if (res.status !== 200 && !(res.status === 429 && Number(retryAfter) >= 1)) refusals.push([res.status, retryAfter, res.json]);
          return { status: res.status, retryAfter, value: res };
        },
        { sleep: clock.sleep },
      );
      if (outcome.delivered) acknowledged.push(request);
    };
    // Every page at once (its updates in order) and every server, the two containers taking turns.
    await Promise.all([
      ...traffic.pages.map(async (requests, i) => {
        for (const request of requests) await send(request, containers[i % 2] as LocalApi);
      }),
      ...traffic.servers.map((request, i) => send(request, containers[i % 2] as LocalApi)),
    ]);
    clock.release();
    expect(refusals).toEqual([]);
    await tallied();
    await tally.drain(120_000);
    const [release] = (await new DynamoReleaseReader(testDoc(), tables.reports).listReleases(factoryId, { limit: 5 })).releases;
    const expected = expectedOf(sent, acknowledged);
    expect(judgeCounters(release?.counters ?? zero(), expected)).toMatchObject({ lost: 0, extra: 0 });
    expect(expected.acknowledged.started).toBeGreaterThan(90);
    expect(distinctCount(release?.users)).toEqual({ count: 40, exact: true });
  } finally {
    await tally.stop();
    client.destroy();
    for (const container of containers) await container.close();
    await proxy.close();
  }
}, 180_000);
