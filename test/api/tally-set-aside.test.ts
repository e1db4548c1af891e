import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { EVENT_DETAIL_ATTRIBUTE } from '../../lambda/infrastructure/store/reports/event-items';
import { eventKey } from '../../lambda/infrastructure/store/schema';
import { ingestTenant, storedReports, validEvent } from '../support/ingest';
import { issuePublishableKey, newFactoryId, realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * No stored record can stop the counting (docs/report-issues.md#events-set-aside), through the local adapter and the
 * run's tally on DynamoDB Local's real stream (test/support/run-tally.ts). `tallied()` waits for a pass of the tally
 * that starts after the call and fails no batch: a record the tally threw on would be handed over again and again,
 * and the wait would end in its timeout instead.
 */
let api: LocalApi;
const doc = testDoc();
const control = controlDependencies(doc, tables, 'Platform');
const operator = { principal: 'arn:aws:sts::123456789012:assumed-role/ControlRoom/ada' };
const issuesList = async (factoryId: string) =>
  (await handleControlRequest({ ...control, now: () => new Date() }, { operation: 'issues.list', factoryId }, operator)).body as Record<string, any>;

beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(async () => {
  await api.close();
});

test('a Sentry event whose only frame is {"lineno":-1} (stored without it now; stored with sdkFrames [{}], an empty map in the stream, by an earlier version) is counted, and so is every event after it, by the next pass', async () => {
  const factoryId = newFactoryId('aside');
  const { key, keyId } = await issuePublishableKey(factoryId, ['https://app.example.com'], { servers: true });
  const path = `/ingest/sentry/api/${sentryProjectId(keyId)}/envelope/?sentry_key=${new URL(dsnFor(api.baseUrl, key, keyId)).username}`;
  const envelope = (eventId: string, event: Record<string, unknown>) =>
    `${[{ event_id: eventId }, { type: 'event' }, { event_id: eventId, ...event }].map((part) => JSON.stringify(part)).join('\n')}\n`;
  const poison = randomUUID().replace(/-/g, '');
  const first = await api.request('POST', path, { body: envelope(poison, { exception: { values: [{ stacktrace: { frames: [{ lineno: -1 }] } }] } }) });
  expect([first.status, first.json]).toEqual([200, { id: poison }]);
  const stored = await storedReports(factoryId);
  // The ingest drops a frame with nothing left once read (issue 48); an event an earlier version stored has it still.
  expect(stored.map((event) => event.sdkFrames)).toEqual([undefined]);
  const { Item: item } = await doc.send(new GetCommand({ TableName: tables.reports, Key: { pk: eventKey(factoryId, stored[0]?.eventId) } }));
  // As the layout before the compressed detail stored it: every field an attribute of its own, the issue under `issue`.
  const { issueId, ...fields } = stored[0] as Record<string, unknown>;
  const earlier = randomUUID();
  const earlierItem = { ...fields, pk: eventKey(factoryId, earlier), eventId: earlier, expiresAt: item?.expiresAt, issue: issueId, sdkFrames: [{}] };
  expect(earlierItem).not.toHaveProperty(EVENT_DETAIL_ATTRIBUTE);
  await doc.send(new PutCommand({ TableName: tables.reports, Item: earlierItem }));
  const after = randomUUID().replace(/-/g, '');
  const second = await api.request('POST', path, { body: envelope(after, { message: 'after the odd frame', fingerprint: ['after'] }) });
  expect(second.status).toBe(200);
  await tallied();
  const listed = await issuesList(factoryId);
  expect(listed.issues.map((issue: { count: number }) => issue.count).sort()).toEqual([1, 2]);
  expect(listed.setAside).toEqual({ counts: {} });
});

test('an event item the tally cannot count (written by another version, its receive time unreadable) is set aside and shown; the events after it are counted', async () => {
  const tenant = await ingestTenant(api, undefined, 'aside');
  const odd = randomUUID();
  await doc.send(
    new PutCommand({
      TableName: tables.reports,
      Item: {
        pk: eventKey(tenant.factoryId, odd),
        factoryId: tenant.factoryId,
        eventId: odd,
        receivedAt: 'the day before',
        expiresAt: 2_000_000_000,
        issue: 'x',
      },
    }),
  );
  const events = [validEvent({ fingerprint: ['counted'] }), validEvent({ fingerprint: ['counted'] })];
  expect((await tenant.events(events)).json).toEqual({ accepted: 2, duplicates: 0, rejected: [] });
  await tallied();
  const listed = await issuesList(tenant.factoryId);
  expect(listed.issues).toEqual([expect.objectContaining({ count: 2 })]);
  expect(listed.setAside).toEqual({ counts: { malformed: 1 }, last: { eventId: odd, reason: 'malformed', detail: 'receivedAt', at: expect.any(String) } });
  // Counted once: the stream's record of it is set aside on every delivery, and the count is kept by the marks.
  await tenant.events([validEvent({ fingerprint: ['counted'] })]);
  await tallied();
  expect((await issuesList(tenant.factoryId)).setAside.counts).toEqual({ malformed: 1 });
});
