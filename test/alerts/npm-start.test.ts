import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { MAX_EVENTS_PER_REQUEST } from '../../lambda/ingest/limits';
import { startReceiver, type Receiver } from '../support/alerts';
import { until } from '../support/browser-sdk';
import { jsonLines, runScript, serverEnv, startServer } from '../support/commands';

/**
 * Alerts end to end on `npm start` (its own store, its own stream poller
 * running the tally and the alert notifier), driven as a factory would:
 * a publishable key, a destination on a local receiver, events posted to
 * the ingest API the way the browser SDK posts them, the issue resolved with
 * the `reports` command. The receiver verifies every delivery with the
 * Standard Webhooks library (test/support/alerts.ts). Each step waits for its delivery (a
 * condition, with a deadline), never for a fixed time.
 */
const ORIGIN = 'http://localhost:5173';
let env: Awaited<ReturnType<typeof serverEnv>>;
let server: Awaited<ReturnType<typeof startServer>>;
let receiver: Receiver;
let serversDir: string;

beforeAll(async () => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  env = await serverEnv(serversDir);
  [server, receiver] = await Promise.all([startServer(env), startReceiver()]);
}, 120_000);
afterAll(async () => {
  await Promise.all([server?.stop(), receiver?.close()]);
  rmSync(env.CONTACTS_DATA_DIR, { recursive: true, force: true });
  rmSync(serversDir, { recursive: true, force: true });
});

const command = (script: string, ...args: string[]) => runScript(script, args, env);
const json = async (script: string, ...args: string[]) => {
  const run = await command(script, ...args);
  expect(run.stderr.split('\n').filter((line) => line.startsWith('error'))).toEqual([]);
  return JSON.parse(run.stdout) as Record<string, any>;
};

/** Events posted as the browser SDK posts them: a publishable key, the page's Origin, up to 20 events a request. */
async function send(key: string, message: string, count = 1): Promise<void> {
  const events = Array.from({ length: count }, () => ({ eventId: randomUUID(), message }));
  const response = await fetch(`${server.baseUrl}/ingest/v1/events`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, Origin: ORIGIN, 'Content-Type': 'application/json' },
    body: JSON.stringify({ events }),
  });
  expect(response.status).toBe(202);
}

const bodiesOf = (secret: string) =>
  receiver.verifiedWith(secret).map((entry) => ({ id: entry.headers['webhook-id'], ...(JSON.parse(entry.body) as { type: string; data: Record<string, any> }) }));

test('a new bug gives one signed delivery; resolved and sent again, one regression; a burst, one spike', async () => {
  const factoryId = `fac_e2e_${randomUUID().slice(0, 8)}`;
  const { key } = await json('keys', 'create', '--factory', factoryId, '--type', 'publishable', '--origin', ORIGIN);
  const { secret } = await json('alerts', 'add', '--factory', factoryId, '--url', receiver.url);
  await json('alerts', 'settings', '--factory', factoryId, '--spike-floor', '10');

  // The same new bug from three pages at once.
  await Promise.all([send(key, 'TypeError: cart is undefined'), send(key, 'TypeError: cart is undefined'), send(key, 'TypeError: cart is undefined')]);
  const [created] = await until('the issue.created delivery', () => {
    const found = bodiesOf(secret).filter((body) => body.type === 'issue.created');
    return found.length > 0 ? found : undefined;
  }, 60_000);
  expect(created!.data).toMatchObject({ factoryId, title: 'TypeError: cart is undefined', status: 'open' });
  const issueId = created!.data.issueId as string;

  const resolved = await command('reports', 'resolve', '--factory', factoryId, '--issue', issueId);
  expect(resolved.status).toBe(0);
  await send(key, 'TypeError: cart is undefined');
  await until('the issue.regressed delivery', () => (bodiesOf(secret).some((body) => body.type === 'issue.regressed') ? true : undefined), 60_000);

  // One request: its events share a receive time, so they land in one 5-minute bucket.
  await send(key, 'TypeError: cart is undefined', MAX_EVENTS_PER_REQUEST);
  await until('the issue.spiking delivery', () => (bodiesOf(secret).some((body) => body.type === 'issue.spiking') ? true : undefined), 60_000);

  // Every record of the issue has been through the notifier by now (one shard, in order): each alert came once.
  const types = bodiesOf(secret).map((body) => body.type);
  expect(types.sort()).toEqual(['issue.created', 'issue.regressed', 'issue.spiking']);
  expect(receiver.received).toHaveLength(3);
  const log = jsonLines((await command('alerts', 'deliveries', '--factory', factoryId)).stdout);
  expect(log.map((delivery) => [delivery.type, delivery.status, delivery.attempts])).toEqual(
    expect.arrayContaining([
      ['issue.created', 'delivered', 1],
      ['issue.regressed', 'delivered', 1],
      ['issue.spiking', 'delivered', 1],
    ]),
  );
  const issues = jsonLines((await command('reports', 'issues', '--factory', factoryId)).stdout);
  expect(issues.map((issue) => [issue.issueId, issue.count, issue.regressions])).toEqual([[issueId, 4 + MAX_EVENTS_PER_REQUEST, 1]]);
}, 240_000);
