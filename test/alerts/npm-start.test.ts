import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MAX_EVENTS_PER_REQUEST } from '../../lambda/ingest/limits';
import { launchEngine, type Engine } from '../../tools/browsers/engines';
import { startReceiver, type Receiver } from '../support/alerts';
import { sdkPage, serveSite } from '../support/browser-sdk';
import { until } from '../support/until';
import { buildSdk } from '../support/sdk-build';
import { jsonLines, runScript, serverEnv, startServer } from '../support/commands';

/**
 * Alerts end to end on `npm start` (its own store, its own stream poller
 * running the tally and the alert notifier), driven as a factory would:
 * a publishable key, a destination on a local receiver, a new bug thrown by
 * a customer's page in headless Chromium and sent by the browser SDK (its
 * one-file build, started the documented two-line way), then the same bug
 * (the event the SDK sent, with new eventIds) posted to the ingest API as
 * the SDK posts it, the issue resolved with the `reports` command. The receiver verifies every delivery with the
 * Standard Webhooks library (test/support/alerts.ts). Each step waits for its delivery (a
 * condition, with a deadline), never for a fixed time.
 */
let env: Awaited<ReturnType<typeof serverEnv>>;
let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Receiver;
let serversDir: string;
let site: Awaited<ReturnType<typeof serveSite>>;
let chromium: Engine;
const pages = new Map<string, string>();

beforeAll(async () => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  env = await serverEnv(serversDir);
  const [{ script }] = await Promise.all([buildSdk(), (async () => ([server, receiver] = await Promise.all([startServer(env), startReceiver()])))()]);
  site = await serveSite({ '/contacts-ingest.min.js': script }, (path) => pages.get(path) ?? '<!doctype html><p>another page</p>');
  chromium = await launchEngine('chromium');
}, 180_000);
afterAll(async () => {
  site?.close();
  await Promise.all([server?.stop(), receiver?.close(), chromium?.close()]);
  rmSync(env.CONTACTS_DATA_DIR, { recursive: true, force: true });
  rmSync(serversDir, { recursive: true, force: true });
});

const command = (script: string, ...args: string[]) => runScript(script, args, env);
const json = async (script: string, ...args: string[]) => {
  const run = await command(script, ...args);
  expect(run.stderr.split('\n').filter((line) => line.startsWith('error'))).toEqual([]);
  return JSON.parse(run.stdout) as Record<string, any>;
};

/** The event the SDK sent, sent again `count` times with new eventIds as the SDK posts them: a publishable key, the page's Origin, up to 20 events a request. */
async function send(key: string, event: Record<string, unknown>, count = 1): Promise<void> {
  const events = Array.from({ length: count }, () => ({ ...event, eventId: randomUUID() }));
  const response = await fetch(`${server.baseUrl}/ingest/v1/events`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Origin: site.origin, 'Content-Type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(response.status).toBe(202);
}

/** What a page of the shop throws when it loads: the new bug of this test. */
const THROWS = `setTimeout(function renderCart() { throw new TypeError('cart is undefined'); });`;

const bodiesOf = (secret: string) =>
  receiver
    .verifiedWith(secret)
    .map((entry) => ({ id: entry.headers['webhook-id'], ...(JSON.parse(entry.body) as { type: string; data: Record<string, any> }) }));

test('a new bug gives one signed delivery linking to the open control room; resolved and sent again, one regression; a burst, one spike', async () => {
  const factoryId = `fac_e2e_${randomUUID().slice(0, 8)}`;
  const { key } = await json('keys', 'create', '--factory', factoryId, '--type', 'publishable', '--origin', site.origin);
  const { secret } = await json('alerts', 'add', '--factory', factoryId, '--url', receiver.url);
  await json('alerts', 'settings', '--factory', factoryId, '--spike-floor', '10');
  // A control room open on another port (this process stands in for it): the alerts link there.
  const controlRoom = join(serversDir, `control-room-${process.pid}.json`);
  writeFileSync(controlRoom, JSON.stringify({ pid: process.pid, url: 'http://127.0.0.1:4321' }));

  // The same new bug in three visitors' tabs at once, each sent by the SDK.
  pages.set('/cart', sdkPage({ key, baseUrl: server.baseUrl, release: 'shop@1.0.0', flushDelayMs: 50 }, '{}', THROWS));
  const tabs = await Promise.all([1, 2, 3].map(() => chromium.newTab()));
  await Promise.all(tabs.map((tab) => tab.goto(`${site.origin}/cart`)));
  const [created] = await until(
    'the issue.created delivery',
    () => {
      const found = bodiesOf(secret).filter((body) => body.type === 'issue.created');
      return found.length > 0 ? found : undefined;
    },
    60_000,
  );
  expect(created!.data).toMatchObject({ factoryId, title: 'TypeError: cart is undefined', status: 'open', release: 'shop@1.0.0' });
  const issueId = created!.data.issueId as string;
  expect(created!.data.link).toBe(`http://127.0.0.1:4321/f/${factoryId}/reports/issues/${issueId}`);
  // That control room closed: the next alert links where npm run control-room starts by default.
  rmSync(controlRoom);
  const sent = await until('the three events the SDK sent', async () => {
    const stored = jsonLines((await command('reports', 'events', '--factory', factoryId)).stdout);
    return stored.length >= 3 ? stored : undefined;
  });
  expect(sent.map((event) => [event.issueId, event.release, event.exception?.type])).toEqual(Array(3).fill([issueId, 'shop@1.0.0', 'TypeError']));
  expect(sent[0]?.exception?.stack).toMatch(/renderCart/);
  await Promise.all(tabs.map((tab) => tab.close()));
  // The bug as the SDK sent it, for the steps that follow (the same issue: the same fingerprint).
  const {
    eventId: _eventId,
    factoryId: _factory,
    keyId: _key,
    origin: _origin,
    receivedAt: _at,
    issueId: _issue,
    userAgent: _ua,
    visitor: _visitor,
    ...bug
  } = sent[0] as Record<string, unknown>;

  const resolved = await command('reports', 'resolve', '--factory', factoryId, '--issue', issueId);
  expect(resolved.status).toBe(0);
  await send(key, bug);
  const regressed = await until('the issue.regressed delivery', () => bodiesOf(secret).find((body) => body.type === 'issue.regressed'), 60_000);
  expect(regressed.data.link).toBe(`http://127.0.0.1:4000/f/${factoryId}/reports/issues/${issueId}`);

  // One request: its events share a receive time, so they land in one 5-minute bucket.
  await send(key, bug, MAX_EVENTS_PER_REQUEST);
  await until('the issue.spiking delivery', () => (bodiesOf(secret).some((body) => body.type === 'issue.spiking') ? true : undefined), 60_000);

  // Every record of the issue has been through the notifier by now (one shard, in order): each alert came once.
  const types = bodiesOf(secret).map((body) => body.type);
  expect(types.sort()).toEqual(['issue.created', 'issue.regressed', 'issue.resolved', 'issue.spiking']);
  expect(receiver.received).toHaveLength(4);
  const log = jsonLines((await command('alerts', 'deliveries', '--factory', factoryId)).stdout);
  expect(log.map((delivery) => [delivery.type, delivery.status, delivery.attempts])).toEqual(
    expect.arrayContaining([
      ['issue.created', 'delivered', 1],
      ['issue.resolved', 'delivered', 1],
      ['issue.regressed', 'delivered', 1],
      ['issue.spiking', 'delivered', 1],
    ]),
  );
  const issues = jsonLines((await command('reports', 'issues', '--factory', factoryId)).stdout);
  expect(issues.map((issue) => [issue.issueId, issue.count, issue.regressions])).toEqual([[issueId, 4 + MAX_EVENTS_PER_REQUEST, 1]]);
  // Three tabs of one browser on one machine: one visitor (address and user agent), and the script's own requests from this machine another.
  expect(issues[0]?.visitors).toBe(2);
}, 240_000);
