import type { Server } from 'node:http';
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import { alertStoreOf } from '../../lambda/alerts/alerts-wiring';
import { createNotifierHandler } from '../../lambda/alerts/notifier';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { DynamoTallyStore } from '../../lambda/infrastructure/store/reports/tally-writes';
import { issueChangeOf } from '../../lambda/infrastructure/store/reports/stream-images';
import { insertedEvents } from '../../lambda/infrastructure/store/reports/stream-records';
import { createTallyHandler } from '../../lambda/ingest/tally/tally';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { send } from '../support/http';
import { ingestEntryWith } from '../support/ingest-entry';
import { EVENTS, FEATURE_REQUESTS, randomClient, validEvent } from '../support/ingest';
import { readableItem } from '../support/items';
import { issuePublishableKey, newFactoryId, tables, testDoc } from '../support/local-api';
import { linesWrittenBy } from '../support/output';
import { tallied } from '../support/tally';

/**
 * Hostile reports over HTTP, on DynamoDB Local (issue 39, docs/privacy.md):
 * pages that send card numbers, tokens, keys, passwords and emails in every
 * free-text field. Nothing of them reaches a stored item (events, the
 * feature request, the issues and feed pages the tally writes from them), nor
 * a log line of the ingest function, the tally or the notifier. The
 * reporter's email is kept on the report (identity belongs there) and never
 * logged either.
 */
const SITE = 'https://shop.example.com';
const REPORTER = 'ada.reporter@example.com';

/** What the pages send, each value unique to this test so that a find is ours. */
const SECRET = {
  card: '4111 1111 1111 1111',
  cardCompact: '5555555555554444',
  email: 'grace.hopper@example.org',
  encodedEmail: 'grace%40example.org',
  bearer: 'opaque-16C7e42F292c6912E7710c838347Ae178B4a',
  jwtPayload: 'eyJzdWIiOiJncmFjZSIsInJvbGUiOiJhZG1pbiJ9',
  secretKey: 'dfsk_leakedLeakedLeaked0123456789',
  webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  password: 'hunter2hunter2',
  urlPassword: 'pa55w0rdInUrl',
  tagToken: 'tok_live_9f2c8e7a6b5d',
  iban: 'DE89 3704 0044 0532 0130 00',
  pemLine: 'MIIEowIBAAKCAQEAu1SU1LfVLPHCozMxH2Mo4lgOEePzNm0tRgeLezV6ffAt0gun',
  apiKey: 'AKIAIOSFODNN7EXAMPLEKEY',
};
const JWT = `eyJhbGciOiJIUzI1NiJ9.${SECRET.jwtPayload}.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U`;

const hostileEvents = () => [
  validEvent({
    message: `Payment failed for ${SECRET.card} (customer ${SECRET.email})`,
    exception: {
      type: 'AuthError',
      value: `rejected Authorization: Bearer ${SECRET.bearer}`,
      stack: `AuthError: rejected\n    at pay (https://shop.example.com/app.js:1:2?token=${JWT})\n    at https://shop.example.com/vendor.js:3:4`,
    },
    pageUrl: `https://shop.example.com/reset?password=${SECRET.password}&next=%2F&email=${SECRET.encodedEmail}`,
    release: `web@1.4.2 ${SECRET.secretKey}`,
    tags: { authToken: SECRET.tagToken, note: `refund to ${SECRET.iban}` },
    reporter: { email: REPORTER, name: 'Ada' },
  }),
  validEvent({
    message: `config dump:\n-----BEGIN RSA PRIVATE KEY-----\n${SECRET.pemLine}\n-----END RSA PRIVATE KEY-----\n{"apiKey": "${SECRET.apiKey}"}`,
    exception: { stack: `Error: x\n    at f (https://user:${SECRET.urlPassword}@shop.example.com/app.js:1:2)` },
    fingerprint: ['checkout', SECRET.webhookSecret],
    reporter: { email: REPORTER },
  }),
  validEvent({ type: 'bug_report', message: `card ${SECRET.cardCompact} charged twice`, reporter: { email: REPORTER } }),
];

const hostileFeatureRequest = () => ({
  requestId: crypto.randomUUID(),
  title: `Export for ${SECRET.email}`,
  description: `Tried with ${SECRET.card} and password=${SECRET.password}`,
  category: SECRET.webhookSecret,
  pageUrl: `https://shop.example.com/x?api_key=${SECRET.apiKey}`,
  reporter: { email: REPORTER, name: 'Ada' },
});

/** Every secret (and each of its parts a rule might leave) that must be found nowhere. */
const FORBIDDEN = [...Object.values(SECRET), SECRET.card.replace(/ /g, ''), SECRET.iban.replace(/ /g, '')];

let handler: ApiHandler;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // The most talkative the function gets: every line it can write is looked at.
  handler = await ingestEntryWith({ LOG_LEVEL: 'DEBUG', POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_SERVICE_NAME: 'contacts-ingest' });
  server = createHttpAdapter(handler);
  baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (key: string, path: string, body: unknown) =>
  send(baseUrl, 'POST', path, {
    headers: { Origin: SITE, 'Content-Type': 'application/json', Authorization: `Bearer ${key}` },
    body,
    localAddress: randomClient(),
  });

/** Every item of the reports table that belongs to the factory: events, feature requests, issues, feed pages, marks. */
async function reportItems(factoryId: string): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let start: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page: ScanCommandOutput = await testDoc().send(
      new ScanCommand({
        TableName: tables.reports,
        FilterExpression: 'contains(pk, :factory)',
        ExpressionAttributeValues: { ':factory': factoryId },
        ExclusiveStartKey: start,
      }),
    );
    items.push(...(page.Items ?? []));
    start = page.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The stream record DynamoDB writes for an item inserted: what the tally and the notifier read. */
const insertRecord = (item: Record<string, unknown>, sequence: number): DynamoDBRecord => ({
  eventID: `scrub-${sequence}`,
  eventName: 'INSERT',
  dynamodb: {
    Keys: { pk: { S: String(item.pk) } },
    NewImage: marshall(item, { removeUndefinedValues: true }) as never,
    SequenceNumber: String(9_000_000 + sequence),
  },
});

const found = (text: string) => FORBIDDEN.filter((secret) => text.includes(secret));

test('hostile reports are stored, and no stored item of the factory holds any of their secrets; the reporter stays', async () => {
  const factoryId = newFactoryId('scrub');
  const { key } = await issuePublishableKey(factoryId, [SITE]);
  const events = hostileEvents();
  const { value: answers } = await linesWrittenBy(async () => [
    await post(key, EVENTS, { events }),
    await post(key, FEATURE_REQUESTS, hostileFeatureRequest()),
  ]);
  expect(answers.map((answer) => answer.status)).toEqual([202, 201]);
  expect(answers[0]?.json).toMatchObject({ accepted: 3, rejected: [] });
  await tallied();

  // Each event's detail expanded (readableItem): what is looked for is what the item holds.
  const items = (await reportItems(factoryId)).map(readableItem);
  const eventItems = items.filter((item) => String(item.pk).startsWith('event#'));
  expect(eventItems).toHaveLength(3);
  expect(items.some((item) => String(item.pk).startsWith('issue#'))).toBe(true);
  expect(found(JSON.stringify(items))).toEqual([]);

  const first = eventItems.find((item) => item.eventId === events[0]?.eventId) as Record<string, any>;
  expect(first.message).toBe('Payment failed for [Filtered:card] (customer [Filtered:email])');
  expect(first.exception.value).toBe('rejected Authorization: Bearer [Filtered:bearer]');
  expect(first.pageUrl).toBe('https://shop.example.com/reset?password=[Filtered:secret]&next=%2F&email=[Filtered:email]');
  expect(first.tags).toEqual({ authToken: '[Filtered:secret]', note: 'refund to [Filtered:iban]' });
  expect(first.scrubbed).toEqual({ card: 1, email: 2, bearer: 1, jwt: 1, secret: 2, 'service-key': 1, iban: 1 });
  expect(first.reporter).toEqual({ email: REPORTER, name: 'Ada' });
  const feature = items.find((item) => String(item.pk).startsWith('fr#') || 'requestId' in item) as Record<string, any>;
  expect(feature).toMatchObject({ title: 'Export for [Filtered:email]', category: '[Filtered:service-key]', reporter: { email: REPORTER } });
  expect(feature.scrubbed).toEqual({ email: 1, card: 1, secret: 2, 'service-key': 1 });
});

test('no log line of the ingest function, the tally or the notifier carries an email or a scrubbed value; the metrics count each rule', async () => {
  const factoryId = newFactoryId('scrub');
  const { key } = await issuePublishableKey(factoryId, [SITE]);
  const ingestLines = (
    await linesWrittenBy(async () => {
      await post(key, EVENTS, { events: hostileEvents() });
      await post(key, FEATURE_REQUESTS, hostileFeatureRequest());
    })
  ).lines;
  const requests = ingestLines.filter((line) => line.message === 'request');
  expect(requests).toEqual([
    expect.objectContaining({ status: 202, accepted: 3, scrubbed: expect.stringMatching(/^[a-z-]+:\d+(,[a-z-]+:\d+)*$/) }),
    expect.objectContaining({ status: 201, scrubbed: 'email:1,card:1,secret:2,service-key:1' }),
  ]);
  const emf = ingestLines.filter((line) => line._aws);
  expect(emf[0]).toMatchObject({
    ScrubbedCard: 2,
    ScrubbedEmail: 2,
    ScrubbedBearer: 1,
    ScrubbedJwt: 1,
    ScrubbedPem: 1,
    ScrubbedUrlPassword: 1,
    ScrubbedIban: 1,
  });
  expect(emf[0]._aws.CloudWatchMetrics[0].Metrics.map((metric: { Name: string }) => metric.Name)).toEqual(
    expect.arrayContaining(['ScrubbedCard', 'ScrubbedPem']),
  );
  expect(emf[1]).toMatchObject({ ScrubbedEmail: 1, ScrubbedCard: 1, ScrubbedSecret: 2, ScrubbedServiceKey: 1 });

  // The tally and the notifier, in this process at their most talkative, on the stream records of what was stored.
  await tallied();
  const items = await reportItems(factoryId);
  const records = items.map((item, i) => insertRecord(item, i));
  const logger = (service: string) => new JsonLogger({ service, level: 'DEBUG' });
  const queued: unknown[] = [];
  const tally = createTallyHandler({ store: new DynamoTallyStore(testDoc(), tables.reports), insertedEvents }, logger('contacts-tally'));
  const notifier = createNotifierHandler(
    { store: alertStoreOf(testDoc(), tables.alerts), queue: { enqueue: async (message) => void queued.push(message) }, linkBase: 'http://localhost:3000' },
    issueChangeOf,
    logger('contacts-alert-notifier'),
  );
  const streamLines = (
    await linesWrittenBy(async () => {
      await tally({ Records: records.filter((record) => record.dynamodb?.Keys?.pk?.S?.startsWith('event#')), shardId: `shard-scrub-${factoryId}` });
      await notifier({ Records: records.filter((record) => record.dynamodb?.Keys?.pk?.S?.startsWith('issue#')) });
    })
  ).lines;
  expect(streamLines.map((line) => line.service)).toEqual(expect.arrayContaining(['contacts-tally', 'contacts-alert-notifier']));

  const everything = JSON.stringify([...ingestLines, ...streamLines]);
  expect(found(everything)).toEqual([]);
  expect(everything).not.toMatch(/[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+\.[A-Za-z]{2,}/);
  expect(everything).not.toContain(REPORTER);
});
