import { randomInt, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import type { DynamoDBRecord } from 'aws-lambda';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { DynamoAffectedPairs } from '../../lambda/infrastructure/store/reports/affected-items';
import { DynamoIssueStore } from '../../lambda/infrastructure/store/reports/dynamo-issue-store';
import { eventKey } from '../../lambda/infrastructure/store/schema';
import type { StoredEvent } from '../../lambda/ingest/issues/stored-event';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { countPeople } from '../../lambda/ingest/tally/count-people';
import { padSequence } from '../../lambda/ingest/tally/exactly-once';
import type { IssueEvent, TallyStore } from '../../lambda/ingest/tally/ports';
import { reportStreamConsumers } from '../../local/harness/streams/consumers';
import { startStreamPoller, type StreamPoller } from '../../local/harness/streams/stream-poller';
import { sendAsTheSdk } from '../../tools/storm/sdk-retry';
import { storedReports } from '../support/ingest';
import {
  bearer,
  issueKey,
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
import { startTestProxy, type TestProxy } from '../support/semantics';
import { tallied } from '../support/tally';

/**
 * A bug hitting many distinct people at once (issue 51, item 5; docs/capacity.md#who-is-affected-under-a-storm), on
 * the service's semantics (tools/semantics: partition ceilings of a 1:50 scale model, 20 write units a second): two
 * containers take the people's events by the own SDK (with `reporter.email`, sent again on 429 as it does) and by
 * Sentry's envelopes (`user.email`, never sent again); some people are contacts at companies, some contacts without
 * one, most not in the CRM. Then: nothing acknowledged is lost, the issue's people and companies are exactly the
 * distinct ones stored, one (issue, person) item per person; and the people step's write units, counted by the layer
 * on a replay of the stored events in the tally's batches.
 *
 * npm test runs it with 80 people; `npm run bench:affected-storm` with 3,000 (AFFECTED_STORM_PEOPLE), writing its
 * figures to AFFECTED_STORM_OUT.
 */
const PEOPLE = Number(process.env.AFFECTED_STORM_PEOPLE ?? 80);
const OUT = process.env.AFFECTED_STORM_OUT;
const SITE = 'https://storm.example.com';
const WIDE = { limit: 1e6, periodMs: 60_000, burst: 1e5 };
const CEILING = 20;
/** The tally's batch on AWS is up to 100 records (its event source mapping): the replay cuts the events so. */
const TALLY_BATCH = 100;

const stormError = () => ({
  eventId: randomUUID(),
  message: 'TypeError: cart is undefined',
  exception: {
    type: 'TypeError',
    value: 'cart is undefined',
    stack: `TypeError: cart is undefined\n    at renderCart (${SITE}/assets/app.js:10:7)`,
  },
});

const address = (i: number) => `127.${60 + Math.floor(i / 250)}.${i % 250}.${1 + randomInt(0, 250)}`;

interface World {
  proxy: TestProxy;
  containers: LocalApi[];
  tally: StreamPoller;
  close(): Promise<void>;
}

/** Two containers and a tally of their own on the proxy (as test/reliability/storm.test.ts builds them). */
async function world(factoryId: string): Promise<World> {
  const proxy = await startTestProxy({ clock: Date.now, holdMs: 5, ceiling: CEILING });
  const through = { endpoint: proxy.endpoint, ...UNHURRIED };
  const start = () =>
    startLocalHost(
      { ...realIngestDependencies({ addressLimits: { requests: WIDE, featureRequests: WIDE } }, through) },
      realDependencies(through),
      UNHURRIED_ADAPTER,
    );
  const containers = [await start(), await start()];
  const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: proxy.endpoint });
  const ours = (record: DynamoDBRecord) => (record.dynamodb?.Keys?.pk?.S ?? '').startsWith(eventKey(factoryId, ''));
  const consumers = reportStreamConsumers(documentClientOf(client), tables).map((consumer) => ({
    ...consumer,
    accepts: (record: DynamoDBRecord) => consumer.accepts(record) && ours(record),
  }));
  const tally = await startStreamPoller({ client, endpoint: proxy.endpoint, tableName: tables.reports, consumers, pollMs: 250 });
  return {
    proxy,
    containers,
    tally,
    async close() {
      await tally.stop();
      client.destroy();
      for (const container of containers) await container.close();
      await proxy.close();
    },
  };
}

test(
  `${PEOPLE} distinct people hit one bug at once by both protocols, on partition ceilings: none acknowledged lost, people and companies counted exactly, one item per (issue, person), the people step's write units counted`,
  async () => {
    const factoryId = newFactoryId('affstorm');
    const phases: Record<string, number> = {};
    let phaseStart = Date.now();
    const phase = (name: string) => {
      phases[name] = Date.now() - phaseStart;
      phaseStart = Date.now();
    };
    const w = await world(factoryId);
    phase('world');
    try {
      const { key, keyId } = await issuePublishableKey(factoryId, [SITE], { rateLimit: 1_000_000, servers: true });
      const secret = bearer((await issueKey(factoryId)).key);
      const envelopePath = `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${new URL(dsnFor(w.containers[0]?.baseUrl as string, key, keyId)).username}`;
      const tag = randomUUID().slice(0, 8);
      const emailOf = (i: number) => `person${i}@p${i % 97}-${tag}.example`;
      // A tenth are contacts at one of 10 companies, a twentieth contacts without a company, the rest not in the CRM.
      const companies = 10;
      const atCompanies = Math.floor(PEOPLE / 10);
      const alone = Math.floor(PEOPLE / 20);
      for (let i = 0; i < atCompanies + alone; i += 1) {
        const body = i < atCompanies ? { email: emailOf(i), companyDomain: `co${i % companies}-${tag}.example` } : { email: emailOf(i) };
        const made = await (w.containers[i % 2] as LocalApi).request('POST', '/api/v1/contacts', { headers: secret, body });
        expect(made.status).toBe(201);
      }
      w.proxy.reset();
      phase('contacts');

      // Each person one or two errors (every third twice), half by each protocol, shuffled.
      const sends = Array.from({ length: PEOPLE }, (_, i) => Array.from({ length: i % 3 === 0 ? 2 : 1 }, () => ({ person: i, sentry: i % 2 === 1 }))).flat();
      sends.sort(() => Math.random() - 0.5);
      const acknowledged: { eventId: string; person: number }[] = [];
      const failures: string[] = [];
      await Promise.all(
        Array.from({ length: 12 }, async (_, lane) => {
          const api = w.containers[lane % 2] as LocalApi;
          for (let send = sends.shift(); send; send = sends.shift()) {
            const error = stormError();
            const from = address(send.person);
            if (send.sentry) {
              const eventId = error.eventId.replace(/-/g, '');
              const event = { event_id: eventId, message: error.message, user: { email: emailOf(send.person) } };
              const body = `${[{ event_id: eventId }, { type: 'event' }, event].map((part) => JSON.stringify(part)).join('\n')}\n`;
              const res = await api.request('POST', envelopePath, { body, localAddress: from });
              // Sentry's SDKs drop an event answered 429 and never send it again.
              if (res.status === 200) acknowledged.push({ eventId, person: send.person });
              else if (res.status !== 429) failures.push(`sentry ${res.status}`);
            } else {
              const sent = await sendAsTheSdk(async () => {
                const res = await api.request('POST', '/ingest/v1/events', {
                  headers: { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'text/plain;charset=UTF-8' },
                  body: JSON.stringify({ events: [{ ...error, reporter: { email: emailOf(send.person) } }] }),
                  localAddress: from,
                });
                return { status: res.status, retryAfter: typeof res.headers['retry-after'] === 'string' ? res.headers['retry-after'] : null, value: res };
              });
              for (const answer of sent.answers) if (answer.status !== 202 && answer.status !== 429) failures.push(`own ${answer.status}`);
              if (sent.delivered) acknowledged.push({ eventId: error.eventId, person: send.person });
            }
          }
        }),
      );
      expect(failures).toEqual([]);
      // The request path's writes only (the world's tally writes through the proxy meanwhile): the events, their byPerson
      // entries, the visitors' limiters, the issue limits and the key's leases.
      const ingest = w.proxy.stats({ prefix: [`event#${factoryId}#`, 'limit#', 'ilimit#', 'person_'] });
      const leases = w.proxy.stats({ table: tables.keys });
      phase('ingest');

      // A batch's new pairs share one index partition (the issue's people), which takes a few units per new pair at the
      // model's 20 a second: the tally's wait grows with the people (docs/capacity.md#who-is-affected-under-a-storm).
      await Promise.all([tallied(), w.tally.drain(Math.max(120_000, PEOPLE * 600))]);
      phase('tally');
      const stored = await storedReports(factoryId);
      const storedIds = new Set(stored.map((event) => String(event.eventId).replace(/-/g, '')));
      // 0 lost after acknowledgement, each stored once.
      expect(acknowledged.filter(({ eventId }) => !storedIds.has(eventId.replace(/-/g, '')))).toEqual([]);
      expect(stored).toHaveLength(storedIds.size);
      // The two protocols' events group apart (their frames differ): each issue's people are the distinct ones of its events.
      const emailOfEvent = (event: Record<string, unknown>) => String((event.reporter as { email?: string } | undefined)?.email).toLowerCase();
      const people = new Set(stored.map(emailOfEvent));
      const personOf = (email: string) => Number(/^person(\d+)@/.exec(email)?.[1]);
      const affectedOf = (emails: Set<string>) => ({
        contacts: [...emails].filter((email) => personOf(email) < atCompanies + alone).length,
        notInCrm: [...emails].filter((email) => personOf(email) >= atCompanies + alone).length,
        companies: new Set(
          [...emails]
            .map(personOf)
            .filter((i) => i < atCompanies)
            .map((i) => i % companies),
        ).size,
      });
      const byIssue = new Map<string, Record<string, unknown>[]>();
      for (const event of stored) byIssue.set(String(event.issueId), [...(byIssue.get(String(event.issueId)) ?? []), event]);
      const issueStore = new DynamoIssueStore(testDoc(), tables.reports);
      const issues = await issueStore.listIssues(factoryId, { limit: 10, nowMs: Date.now() });
      expect(issues.map((issue) => [issue.issueId, issue.count, issue.affected]).sort()).toEqual(
        [...byIssue].map(([issueId, events]) => [issueId, events.length, affectedOf(new Set(events.map(emailOfEvent)))]).sort(),
      );
      for (const [issueId, events] of byIssue) {
        const listed = await issueStore.peopleOf(factoryId, issueId, PEOPLE + 10, Date.now());
        expect([listed.items.length, listed.items.reduce((sum, person) => sum + person.events, 0)]).toEqual([
          new Set(events.map(emailOfEvent)).size,
          events.length,
        ]);
      }
      const expected = affectedOf(people);

      // The people step alone, counted by the layer: the stored events replayed in the tally's batches into an issue of
      // their own, then the first batch delivered again (the marks make it count nothing twice).
      // Without ceilings (units are counted either way): a batch's new pairs all land in one index partition (the
      // issue's people, ceilings in docs/capacity.md), which the tally's retries wait out; here only the units matter.
      phase('checks');
      const counter = await startTestProxy({ clock: Date.now, throttling: false });
      const doc = documentClientOf(createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: counter.endpoint }));
      const pairs = new DynamoAffectedPairs(doc, { reports: tables.reports, contacts: tables.contacts });
      const store = {
        addToPerson: (shard, batch) => pairs.add(shard, batch),
        reportersNow: (events) => pairs.reportersNow(events),
        withdrawPerson: (batch, pair, heir) => pairs.withdraw(batch, pair, heir),
      } as Pick<TallyStore, 'addToPerson' | 'reportersNow' | 'withdrawPerson'> as TallyStore;
      const replayIssue = `iss_${randomUUID().replace(/-/g, '').slice(0, 20)}`;
      const inOrder = [...stored].sort((a, b) => String(a.receivedAt).localeCompare(String(b.receivedAt)));
      const replayed: IssueEvent[] = inOrder.map((event, i) => ({
        seq: padSequence(String(i + 1)),
        event: { ...(event as unknown as StoredEvent), factoryId, expiresAt: Math.floor(Date.now() / 1000) + 86_400 },
        issue: { issueId: replayIssue } as IssueEvent['issue'],
      }));
      const batches: IssueEvent[][] = [];
      for (let at = 0; at < replayed.length; at += TALLY_BATCH) batches.push(replayed.slice(at, at + TALLY_BATCH));
      let personBatches = 0;
      for (const batch of batches) {
        await countPeople(store, 'shard-replay', batch);
        personBatches += new Set(batch.map((item) => String(item.event.reporter?.email).toLowerCase())).size;
      }
      const firstPass = counter.stats({ prefix: [`affected#${factoryId}#${replayIssue}`, `affco#${factoryId}#${replayIssue}`] });
      const indexes = counter.stats({ prefix: [`${factoryId}#affected#${replayIssue}`, `${factoryId}#company-issues#`, 'ct_'] });
      const reads = counter.stats().operations.GetItem?.requests ?? 0;
      // The check after the pairs' write (docs/privacy.md#an-erasure-and-the-tally): one consistent BatchGetItem per batch of at most 100 events.
      const checkReads = counter.stats().operations.BatchGetItem?.requests ?? 0;
      expect(checkReads).toBe(batches.length);
      await countPeople(store, 'shard-replay', batches[0] ?? []);
      const again = counter.stats({ prefix: [`affected#${factoryId}#${replayIssue}`, `affco#${factoryId}#${replayIssue}`] });
      const replayPeople = await pairs.peopleOf(factoryId, replayIssue, PEOPLE + 10, Date.now());
      expect([replayPeople.items.length, replayPeople.items.reduce((sum, person) => sum + person.events, 0)]).toEqual([people.size, stored.length]);
      // At most one write of a pair per batch naming its person (never one per event), plus one CRM link per new pair.
      expect(firstPass.matched.writes).toBeLessThanOrEqual(personBatches + 2 * people.size);
      expect(firstPass.matched.throttles + indexes.matched.throttles).toBe(0);

      const units = firstPass.matched.units + indexes.matched.units;
      const figures = {
        people: people.size,
        events: stored.length,
        acknowledged: acknowledged.length,
        lost: 0,
        issues: byIssue.size,
        affected: expected,
        ingest: {
          writeUnits: round(ingest.matched.units + leases.matched.units),
          unitsPerEvent: round((ingest.matched.units + leases.matched.units) / stored.length),
          throttledWrites: ingest.matched.throttles + leases.matched.throttles,
          conflicts: ingest.matched.conflicts + leases.matched.conflicts,
        },
        peopleStep: {
          batches: batches.length,
          pairWrites: firstPass.matched.writes,
          pairUnits: round(firstPass.matched.units),
          indexUnits: round(indexes.matched.units),
          unitsPerNewPair: round(units / people.size),
          unitsPerEvent: round(units / stored.length),
          contactReads: reads,
          checkReads,
          redeliveredBatchWrites: again.matched.writes - firstPass.matched.writes,
        },
      };
      await counter.close();
      phase('replay');
      if (OUT) writeFileSync(OUT, `${JSON.stringify({ ...figures, phasesMs: phases }, null, 2)}\n`);
      expect(figures.peopleStep.unitsPerNewPair).toBeLessThan(10);
    } finally {
      await w.close();
    }
  },
  Math.max(300_000, PEOPLE * 1_000),
);

const round = (value: number) => Math.round(value * 100) / 100;
