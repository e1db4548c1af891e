/**
 * Demo data for the control room: contacts through the contacts API, reports
 * through the ingest API (both of a running host), keys and the enrichment
 * reference dataset written as `keys create` and `enrich load-dataset` do.
 * Used by the screenshots command and the browser tests; `hostile` adds the
 * text an attacker would send (markup, script, quotes) to names, titles,
 * pages, event messages, stacks and feature-request titles.
 */
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { SuppressionKeys } from '../../lambda/contacts/domain/vendor-suppression';
import { DynamoSuppressionSecret } from '../../lambda/infrastructure/store/keys/dynamo-person-secret';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { ReferenceWriter } from '../../lambda/infrastructure/store/reference/reference-writer';
import { readReports } from '../../lambda/infrastructure/store/reports/report-reader';
import { usageSortKey, type TableNames } from '../../lambda/infrastructure/store/schema';

export const DEMO_ORIGIN = 'http://localhost:5173';

/** Text meant to break out of HTML, attributes and script blocks: it must show as text and never run. */
export const HOSTILE = {
  name: '<img src=x onerror="window.__pwned=1">',
  title: '</script><script>window.__pwned=1</script>',
  page: '"><svg onload="window.__pwned=1">',
  message: '<img src=x onerror="window.__pwned=1"> failed in </script><b>bold</b>',
  stack: 'Error: <svg onload="window.__pwned=1">\n    at "><script>window.__pwned=1</script> (app.js:1:1)',
  title2: '"><svg onload="window.__pwned=1"> please',
} as const;

const PEOPLE = [
  ['ada.lovelace', 'Ada Lovelace', 'analytical.example', 'Head of Engines'],
  ['grace.hopper', 'Grace Hopper', 'navy.example', undefined],
  ['alan.turing', undefined, 'bletchley.example', undefined],
  ['katherine.johnson', 'Katherine Johnson', 'nasa.example', 'Mathematician'],
  ['edsger.dijkstra', 'Edsger Dijkstra', 'eindhoven.example', undefined],
  ['barbara.liskov', 'Barbara Liskov', 'mit.example', 'Professor'],
  ['donald.knuth', undefined, 'stanford.example', undefined],
  ['margaret.hamilton', 'Margaret Hamilton', 'nasa.example', undefined],
  ['linus.torvalds', 'Linus Torvalds', 'kernel.example', 'Maintainer'],
  ['radia.perlman', 'Radia Perlman', 'dec.example', undefined],
  ['ken.thompson', 'Ken Thompson', 'bell.example', undefined],
  ['frances.allen', undefined, 'ibm.example', undefined],
] as const;

/** What the reference dataset knows: enrichment fills these where the contact has nothing. */
const REFERENCE: Record<string, Record<string, string>> = {
  'grace.hopper': { title: 'Rear Admiral', location: 'Arlington, VA' },
  'alan.turing': { name: 'Alan Turing', title: 'Cryptanalyst', location: 'Manchester' },
  'edsger.dijkstra': { title: 'Professor', location: 'Eindhoven' },
  'donald.knuth': { name: 'Donald Knuth', location: 'Stanford, CA' },
  'margaret.hamilton': { title: 'Director of Software Engineering', phone: '+1 617 555 0100' },
  'frances.allen': { name: 'Frances Allen', title: 'Fellow' },
  'ada.lovelace': { title: 'Countess', location: 'London' },
};

export interface DemoOptions {
  apiUrl: string;
  doc: DynamoDBDocumentClient;
  tables: TableNames;
  factoryId: string;
  hostile?: boolean;
  /** Billed passes of the five months before this one, as usage records (a chart with a history). */
  history?: boolean;
  /** Domain of the email addresses: one per run keeps factories apart in a shared reference table. */
  mailDomain?: string;
}

export interface Demo {
  factoryId: string;
  contacts: Record<string, unknown>[];
  /** The contact with hostile text, when asked for. */
  hostileContactId?: string;
  eventIds: string[];
  hostileEventId?: string;
  secretKeyId: string;
}

/**
 * A JSON POST from a loopback address of its own: the ingest API limits
 * feature requests per client address, and each report here stands for a
 * different visitor.
 */
function post(url: string, body: unknown, headers: Record<string, string>): Promise<{ status: number; json: Record<string, unknown> }> {
  const from = `127.${1 + Math.floor(Math.random() * 254)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 254)}`;
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as Record<string, unknown> }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

/**
 * Waits until the factory's events are listed, which the tally does from the
 * stream within a second or two (docs/report-issues.md#exact-counts), so that
 * the control room shows what was seeded: whichever tally runs (npm start's,
 * or the test run's) puts them on their feed pages and issues.
 */
async function untilTallied(doc: DynamoDBDocumentClient, tables: TableNames, factoryId: string, events: number, timeoutMs = 60_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; ; ) {
    let listed = 0;
    for await (const _event of readReports(doc, tables.reports, factoryId, 'events')) listed += 1;
    if (listed >= events) return;
    if (Date.now() > deadline)
      throw new Error(`only ${listed} of the ${events} seeded events were tallied within ${timeoutMs / 1000} s: is a tally running on this store?`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export async function seedDemo(options: DemoOptions): Promise<Demo> {
  const { apiUrl, doc, tables, factoryId } = options;
  const domain = options.mailDomain ?? 'demo.example';
  const admin = new KeyAdmin(doc, tables.keys);
  const secret = await admin.create({ factoryId, type: 'secret', rateLimit: 6000 });
  const auth = { Authorization: `Bearer ${secret.key}` };

  // Through the loader's writer: a demo person erased earlier on this store stays erased.
  const vendor = new ReferenceWriter(doc, tables.reference, new SuppressionKeys(new DynamoSuppressionSecret(doc, tables.keys)));
  await vendor.write(Object.entries(REFERENCE).map(([user, fields]) => ({ email: `${user}@${domain}`, ...fields })));
  const contacts: Record<string, unknown>[] = [];
  for (const [user, name, companyDomain, title] of PEOPLE) {
    const body = { email: `${user}@${domain}`, companyDomain, ...(name ? { name } : {}), ...(title ? { title } : {}) };
    const answer = await post(`${apiUrl}/api/v1/contacts`, body, auth);
    if (answer.status >= 300) throw new Error(`seeding ${user}: ${answer.status} ${JSON.stringify(answer.json)}`);
    contacts.push(answer.json.contact as Record<string, unknown>);
  }
  let hostileContactId: string | undefined;
  if (options.hostile) {
    const answer = await post(
      `${apiUrl}/api/v1/contacts`,
      {
        email: `mallory@${domain}`,
        name: HOSTILE.name,
        title: HOSTILE.title,
        page: `https://evil.example/${HOSTILE.page}`,
        companyDomain: 'evil.example',
        company: HOSTILE.name,
      },
      auth,
    );
    if (answer.status >= 300) throw new Error(`seeding the hostile contact: ${answer.status} ${JSON.stringify(answer.json)}`);
    hostileContactId = String((answer.json.contact as Record<string, unknown>).id);
    contacts.push(answer.json.contact as Record<string, unknown>);
  }

  // A secret key pasted into a web page: the ingest API refuses it and marks it exposed.
  const leaked = await admin.create({ factoryId, type: 'secret' });
  await post(
    `${apiUrl}/ingest/v1/events`,
    { events: [{ eventId: randomUUID(), message: 'leak' }] },
    { Authorization: `Bearer ${leaked.key}`, Origin: DEMO_ORIGIN },
  );
  const publishable = await admin.create({ factoryId, type: 'publishable', origins: [DEMO_ORIGIN] });
  const ingest = { Authorization: `Bearer ${publishable.key}`, Origin: DEMO_ORIGIN };
  const events: Record<string, unknown>[] = [
    {
      type: 'error',
      message: "TypeError: Cannot read properties of undefined (reading 'email')",
      exception: {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'email')",
        stack:
          "TypeError: Cannot read properties of undefined (reading 'email')\n    at renderContact (https://app.example.com/assets/contacts.js:118:23)\n    at https://app.example.com/assets/app.js:42:7",
      },
      pageUrl: 'https://app.example.com/contacts/42',
      release: 'web@2.4.1',
    },
    {
      type: 'bug_report',
      message: 'The export button does nothing on Safari',
      pageUrl: 'https://app.example.com/export',
      reporter: { email: 'jo@customer.example', name: 'Jo' },
    },
    { type: 'message', message: 'Checkout finished in 4.2 s', tags: { plan: 'pro', region: 'eu' } },
    {
      type: 'error',
      exception: {
        type: 'RangeError',
        value: 'Invalid time value',
        stack: 'RangeError: Invalid time value\n    at Date.toISOString (<anonymous>)\n    at formatDay (https://app.example.com/assets/calendar.js:12:9)',
      },
      pageUrl: 'https://app.example.com/calendar',
    },
  ];
  if (options.hostile)
    events.push({
      type: 'error',
      message: HOSTILE.message,
      exception: { type: '<b>Evil</b>', value: HOSTILE.title, stack: HOSTILE.stack },
      pageUrl: `https://evil.example/${HOSTILE.page}`,
    });
  const eventIds: string[] = [];
  for (const event of events) {
    const eventId = randomUUID();
    const answer = await post(`${apiUrl}/ingest/v1/events`, { events: [{ eventId, ...event }] }, ingest);
    if (answer.status !== 202) throw new Error(`seeding an event: ${answer.status} ${JSON.stringify(answer.json)}`);
    eventIds.push(eventId);
  }
  const requests = [
    { title: 'Dark mode for the dashboard', description: 'Working at night is hard on the eyes.\nA dark theme would help.', category: 'ui' },
    { title: 'Export to Google Sheets', category: 'integrations' },
    ...(options.hostile ? [{ title: HOSTILE.title2, description: HOSTILE.message }] : []),
  ];
  for (const request of requests) {
    const answer = await post(`${apiUrl}/ingest/v1/feature-requests`, { requestId: randomUUID(), ...request }, ingest);
    if (answer.status >= 300) throw new Error(`seeding a feature request: ${answer.status} ${JSON.stringify(answer.json)}`);
  }
  await untilTallied(doc, tables, factoryId, eventIds.length);
  if (options.history) {
    const now = new Date();
    for (const [back, billed] of [
      [5, 120],
      [4, 310],
      [3, 260],
      [2, 540],
      [1, 430],
    ] as const) {
      const month = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 15));
      const period = month.toISOString().slice(0, 7);
      await doc.send(
        new PutCommand({
          TableName: tables.contacts,
          Item: { factoryId, sk: usageSortKey(period, '00'), period, billedPasses: billed, lastPassAt: month.toISOString() },
        }),
      );
    }
  }
  return {
    factoryId,
    contacts,
    hostileContactId,
    eventIds,
    hostileEventId: options.hostile ? eventIds[eventIds.length - 1] : undefined,
    secretKeyId: secret.keyId,
  };
}
