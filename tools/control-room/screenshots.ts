/**
 * npm run control-room:screenshots: pictures of the control room's main
 * pages for docs/control-room-app.md, taken from demo data anyone can
 * recreate. Starts an in-memory DynamoDB Local (or uses DYNAMODB_ENDPOINT),
 * the contacts and ingest APIs and the control room in this process, seeds
 * a demo factory through the APIs, runs a few operations (a refresh, a
 * clear with a reason, a bulk run), and writes PNGs at 1280 px (and one at
 * a phone's width) into docs/images/ with headless Chromium.
 */
// Before any module of the service reads its environment: the in-process APIs log nothing.
import '../bench/env';
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join, relative } from 'node:path';
import { chromium } from 'playwright-core';
import { parseCommandLine, runCommand, UsageError } from '../../local/harness/cli';
import { connectControl } from '../../local/console/control/client';
import { createSession } from '../../local/console/control-room/security';
import { createControlRoomServer, listenLocal } from '../../local/console/control-room/server';
import { hostHandler, sourceHandlers } from '../../local/harness/host';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { freePort } from '../../local/harness/ports';
import { openScratchStore } from '../../local/harness/store';
import { startReportStreams } from '../../local/harness/streams/report-streams';
import { seedAffectedDemo } from './affected-demo';
import { seedDemo } from './demo-data';
import { seedTrendDemo } from './trend-demo';

const USAGE = `usage: npm run control-room:screenshots [-- --out <folder>]

Writes PNGs of the control room's main pages (demo data, in-memory DynamoDB Local) into
docs/images/ (or --out). Needs Chromium at /usr/bin/chromium.`;

const CHROMIUM = '/usr/bin/chromium';
const FACTORY = 'fac_demo';

/** Two bug reports and a feature request from a contact's email, so their page and the erasure page have reports to show. */
async function reportsFrom(email: string, apiUrl: string, client: Awaited<ReturnType<typeof connectControl>>): Promise<void> {
  const origin = 'https://app.example.com';
  const { key } = await client.call({ operation: 'keys.create', factoryId: FACTORY, type: 'publishable', origins: [origin] });
  const headers = { Authorization: `Bearer ${String(key)}`, Origin: origin, 'Content-Type': 'application/json' };
  const reporter = { email, name: 'Ada' };
  const sent = [
    await fetch(`${apiUrl}/ingest/v1/events`, {
      method: 'POST',
      headers,
      body: JSON.stringify({
        events: [
          { eventId: randomUUID(), type: 'error', message: 'TypeError: invoice.total is undefined', pageUrl: 'https://app.example.com/invoices/7', reporter },
          { eventId: randomUUID(), type: 'bug_report', message: 'The PDF of invoice 7 is empty', pageUrl: 'https://app.example.com/invoices/7', reporter },
        ],
      }),
    }),
    await fetch(`${apiUrl}/ingest/v1/feature-requests`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ requestId: randomUUID(), title: 'Invoices in CSV', reporter }),
    }),
  ];
  for (const answer of sent) if (answer.status >= 300) throw new Error(`seeding a report of a contact: ${answer.status}`);
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { out: { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const out = values.out ?? join(PROJECT_ROOT, 'docs', 'images');
  mkdirSync(out, { recursive: true });
  const say = (line: string) => process.stdout.write(`${line}\n`);

  const store = await openScratchStore({ say, fastStart: true, exitOnSignal: true });
  // The Lambda handlers and the control room's operations read the store from the environment.
  process.env.DYNAMODB_ENDPOINT = store.endpoint;
  // The tally, from the store's stream, as under npm start: the seeded events counted into their issues.
  const streams = await startReportStreams({ endpoint: store.endpoint, say });
  const api = createHttpAdapter(hostHandler(await sourceHandlers()));
  const apiPort = await listen(api, 0, '127.0.0.1');
  const client = await connectControl({});
  const port = await freePort();
  const session = createSession(port);
  const room = createControlRoomServer({ client, session });
  await listenLocal(room, port);
  const base = `http://127.0.0.1:${port}`;
  let receiver: Server | undefined;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  try {
    const demo = await seedDemo({ apiUrl: `http://127.0.0.1:${apiPort}`, doc: store.doc, tables: store.tables, factoryId: FACTORY, history: true });
    const id = (user: string) => String(demo.contacts.find((contact) => String(contact.email).startsWith(user))?.id);
    const grace = id('grace.hopper');
    const ada = id('ada.lovelace');
    await client.call({ operation: 'enrichment.refresh', factoryId: FACTORY, contactId: ada });
    await client.call({
      operation: 'contacts.clear',
      factoryId: FACTORY,
      contactId: ada,
      fields: ['title'],
      reason: 'ticket 4711: the customer says the title is wrong',
    });
    await reportsFrom(String(demo.contacts.find((contact) => contact.id === ada)?.email), `http://127.0.0.1:${apiPort}`, client);
    const trendIssue = await seedTrendDemo(store.doc, store.tables.reports, FACTORY);
    const affectedIssue = await seedAffectedDemo(`http://127.0.0.1:${apiPort}`, client, FACTORY, async () => streams?.drain(60_000));
    // A receiver that takes every delivery, so the alerts page shows a test delivery in its log.
    receiver = createServer((req, res) => req.resume().on('end', () => res.end()));
    const receiverPort = await listen(receiver, 0, '127.0.0.1');
    const hook = await client.call({
      operation: 'alerts.add',
      factoryId: FACTORY,
      url: `http://127.0.0.1:${receiverPort}/contacts-alerts`,
      description: 'on-call channel',
    });
    await client.call({ operation: 'alerts.test', factoryId: FACTORY, destinationId: String(hook.destinationId) });
    await client.call({ operation: 'alerts.configure', factoryId: FACTORY, spikeMultiple: 5, spikeFloor: 20 });

    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, timezoneId: 'Europe/Berlin', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(session.loginUrl());
    const shots: [string, string, (() => Promise<void>)?][] = [
      ['control-room-contacts', `/f/${FACTORY}/contacts`],
      ['control-room-contact', `/f/${FACTORY}/contacts/${ada}`],
      [
        'control-room-refresh',
        `/f/${FACTORY}/contacts/${grace}`,
        async () => {
          await page.click('#refresh');
          await page.waitForSelector('#flash:not([hidden])');
        },
      ],
      [
        'control-room-enrichment',
        `/f/${FACTORY}/enrichment`,
        async () => {
          await page.click('#bulk-start');
          await page.waitForSelector('#bulk-summary[data-done="true"]');
        },
      ],
      ['control-room-keys', `/f/${FACTORY}/keys`],
      ['control-room-issues', `/f/${FACTORY}/reports/issues`],
      ['control-room-issue-trend', `/f/${FACTORY}/reports/issues/${trendIssue}`],
      ['control-room-issue-affected', `/f/${FACTORY}/reports/issues/${affectedIssue}`],
      ['control-room-alerts', `/f/${FACTORY}/alerts`],
      ['control-room-events', `/f/${FACTORY}/reports/events`],
      ['control-room-event', `/f/${FACTORY}/reports/events/${demo.eventIds[0]}`],
      ['control-room-export', `/f/${FACTORY}/export`],
      [
        'control-room-erase',
        `/f/${FACTORY}/erase?contact=${ada}`,
        async () => {
          await page.click('#erase-form button[type="submit"]');
          await page.fill('#erase-again', ada);
        },
      ],
    ];
    for (const [name, path, act] of shots) {
      await page.goto(`${base}${path}`);
      await act?.();
      const file = join(out, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      say(`wrote ${relative(process.cwd(), file)}`);
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${base}/f/${FACTORY}/contacts/${ada}`);
    const phone = join(out, 'control-room-contact-phone.png');
    await page.screenshot({ path: phone });
    say(`wrote ${relative(process.cwd(), phone)}`);
  } finally {
    await browser.close();
    receiver?.close();
    room.closeAllConnections();
    room.close();
    api.closeAllConnections();
    api.close();
    await client.close();
    await streams?.stop();
    await store.close();
  }
});
