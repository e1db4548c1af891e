import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { controlDependencies } from '../../lambda/control/control-room-wiring';
import { handleControlRequest } from '../../lambda/control/handle-request';
import { visitorSaltKey } from '../../lambda/infrastructure/store/schema';
import { ingestTenant, randomClient, storedReports, validEvent } from '../support/ingest';
import { tableItems } from '../support/items';
import { realIngestDependencies, startLocalHost, tables, testDoc, type LocalApi } from '../support/local-api';
import { tallied } from '../support/tally';

/**
 * Visitors affected, at ingest (docs/report-issues.md#visitors-affected),
 * over HTTP on the local host: each event carries a short hash of its
 * client's address and user agent under the day's salt; the salt sits in
 * the keys table, never beside the hashes, and expires; the next day the
 * same visitor has another hash; an issue counts its distinct visitors.
 */
const DAY = Date.parse('2031-05-10T12:00:00Z');
const clock = { now: DAY };
let api: LocalApi;
beforeAll(async () => {
  api = await startLocalHost({ ...realIngestDependencies(), now: () => clock.now });
});
afterAll(() => api.close());

const UA = { 'User-Agent': 'Mozilla/5.0 (visitor test)' };

/** The visitor hash stored with one event sent from `from` with `headers`. */
async function visitorOf(tenant: Awaited<ReturnType<typeof ingestTenant>>, from: string, headers: Record<string, string> = UA): Promise<string> {
  const event = validEvent({ message: 'visitor probe', fingerprint: ['probe'] });
  expect((await tenant.events([event], { from, headers })).status).toBe(202);
  const stored = (await storedReports(tenant.factoryId)).find((report) => report.eventId === event.eventId);
  return String(stored?.visitor);
}

test('one client (address and user agent) is one hash all day; another address or another browser is another', async () => {
  const tenant = await ingestTenant(api, undefined, 'visit');
  const client = randomClient();
  const first = await visitorOf(tenant, client);
  expect(first).toMatch(/^[A-Za-z0-9_-]{8}$/);
  clock.now += 3_600_000;
  expect(await visitorOf(tenant, client)).toBe(first);
  expect(await visitorOf(tenant, randomClient())).not.toBe(first);
  expect(await visitorOf(tenant, client, { 'User-Agent': 'Mozilla/5.0 (another browser)' })).not.toBe(first);
  clock.now = DAY;
});

test("the day's salt is one item of the keys table that expires two days after its day began; the reports table holds no salt and no address", async () => {
  const tenant = await ingestTenant(api, undefined, 'visit');
  const client = randomClient();
  await visitorOf(tenant, client);
  const { Item: salt } = await testDoc().send(new GetCommand({ TableName: tables.keys, Key: { keyHash: visitorSaltKey('2031-05-10') }, ConsistentRead: true }));
  expect(salt?.expiresAt).toBe(Date.parse('2031-05-12T00:00:00Z') / 1000);
  expect(salt?.salt).toBeInstanceOf(Uint8Array);
  const reports = JSON.stringify(await tableItems(tables.reports));
  const bytes = Buffer.from(salt?.salt as Uint8Array);
  for (const form of [bytes.toString('base64'), bytes.toString('hex'), bytes.toString('base64url')]) expect(reports).not.toContain(form);
  expect(reports).not.toContain(client);
});

test('the next day the same client has another hash (the salt is replaced daily)', async () => {
  const tenant = await ingestTenant(api, undefined, 'visit');
  const client = randomClient();
  const today = await visitorOf(tenant, client);
  clock.now = DAY + 86_400_000;
  const tomorrow = await visitorOf(tenant, client);
  clock.now = DAY;
  expect(tomorrow).not.toBe(today);
  const { Item } = await testDoc().send(new GetCommand({ TableName: tables.keys, Key: { keyHash: visitorSaltKey('2031-05-11') }, ConsistentRead: true }));
  expect(Item?.salt).toBeInstanceOf(Uint8Array);
});

test('an issue counts its distinct visitors: three clients, seven events, three visitors affected', async () => {
  const tenant = await ingestTenant(api, undefined, 'visit');
  const clients = [randomClient(), randomClient(), randomClient()];
  for (const [i, from] of [0, 1, 2, 0, 1, 0, 0].map((n) => clients[n] as string).entries()) {
    expect((await tenant.events([validEvent({ message: `visitors ${i}`, fingerprint: ['three visitors'] })], { from, headers: UA })).status).toBe(202);
  }
  await tallied();
  const control = controlDependencies(testDoc(), tables, 'Platform');
  const answer = await handleControlRequest(
    { ...control, now: () => new Date(clock.now) },
    { operation: 'issues.list', factoryId: tenant.factoryId },
    { principal: 'test' },
  );
  expect(answer.body.issues).toEqual([expect.objectContaining({ count: 7, visitors: 3, visitorsExact: true })]);
});
