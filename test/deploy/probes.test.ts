import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCanaryReceiver } from '../../lambda/alerts/canary-receiver';
import { alertStoreOf } from '../../lambda/alerts/alerts-wiring';
import { createNotifierHandler } from '../../lambda/alerts/notifier';
import { newWebhookSecret } from '../../lambda/alerts/signature';
import { JsonLogger } from '../../lambda/infrastructure/observability/logger';
import { issueChangeOf } from '../../lambda/infrastructure/store/reports/stream-images';
import { tables, testDoc } from '../support/local-api';
import { runProbes, type Invocation, type Probe } from '../../lambda/infrastructure/deploy/probes';
import { CANARY_EMAIL, CANARY_FACTORY_ID } from '../../lambda/kernel/canary';
import { contactsProbes, controlRoomProbes, delivererProbes, ingestProbes, notifierProbes, sourceMapsProbes, tallyProbes } from '../../lib/pre-traffic-probes';
import { lambdaContext } from '../support/events';

/**
 * The probes the stack gives each function's pre-traffic hook, sent to that
 * function's real entry point on DynamoDB Local, the way the hook invokes a
 * new version (docs/deploying.md#the-pre-traffic-check): a good version passes
 * every probe; a version whose table is out of reach (a wrong name, a missing
 * permission: the call fails either way) fails the probe that touches it.
 */
type Entry = (event: never, context: Context) => Promise<unknown>;
const HOOK_ROLE = 'arn:aws:iam::123456789012:role/ContactsService-PreTrafficHookRole';

/** Loads an entry point afresh with these environment variables changed (each entry reads its environment once, at load). */
async function loadEntry(module: string, changed: Record<string, string> = {}): Promise<Entry> {
  // The alert functions want their queue's address at load; no probe sends a message to it.
  const env = { DELIVERY_QUEUE_URL: 'http://127.0.0.1:9/no-queue', ...changed };
  const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  Object.assign(process.env, env);
  try {
    let entry: Entry | undefined;
    await jest.isolateModulesAsync(async () => {
      entry = ((await import(module)) as { handler: Entry }).handler;
    });
    return entry!;
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/** Invokes an entry point as Lambda would with the hook's payload: the answer as JSON, or the error as a FunctionError. */
const invoker =
  (entry: Entry) =>
  async (payload: string): Promise<Invocation> => {
    try {
      return { payload: JSON.stringify(await entry(JSON.parse(payload) as never, lambdaContext())) };
    } catch (error) {
      return { functionError: 'Unhandled', payload: JSON.stringify({ errorMessage: String(error) }) };
    }
  };

const probe = (probes: Probe[], words: RegExp): Probe => probes.find((p) => words.test(p.name))!;

/**
 * The stack's canary receiver (lambda/alerts/canary-receiver.ts) on a local
 * port, as its function URL would run it: what the deliverer's canary
 * delivery is sent to. Loopback is allowed only here, as npm start allows it.
 */
/** As the stack makes it (lib/canary-receiver.ts): `whsec_` and the 32 hex digits of the stack's random id. */
const RECEIVER_SECRET = `whsec_${randomUUID().replace(/-/g, '')}`;
let receiver: Server;
const received: number[] = [];
beforeAll(async () => {
  const answer = createCanaryReceiver(RECEIVER_SECRET);
  receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void answer({ headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') }).then(({ statusCode }) => {
        received.push(statusCode);
        response.writeHead(statusCode).end();
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));
const receiverEnv = (secret = RECEIVER_SECRET) => ({
  CANARY_RECEIVER_URL: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/canary`,
  CANARY_WEBHOOK_SECRET: secret,
  ALERTS_ALLOW_LOOPBACK: 'true',
});

describe.each([
  ['contacts API', '../../lambda/contacts/api/contacts-entry', contactsProbes()],
  ['ingest API', '../../lambda/ingest/api/ingest-entry', ingestProbes()],
  ['source maps API', '../../lambda/ingest/sourcemaps/api/sourcemaps-entry', sourceMapsProbes()],
  ['control room', '../../lambda/control/control-room-entry', controlRoomProbes(HOOK_ROLE)],
  ['tally', '../../lambda/ingest/tally/tally-entry', tallyProbes()],
  ['alert notifier', '../../lambda/alerts/notifier-entry', notifierProbes()],
  ['alert deliverer', '../../lambda/alerts/deliverer-entry', delivererProbes()],
])('the %s function', (_, module, probes) => {
  test('passes every probe of its hook, in order', async () => {
    const outcomes = await runProbes(invoker(await loadEntry(module, module.endsWith('deliverer-entry') ? receiverEnv() : {})), probes);
    expect(outcomes.map(({ name, passed, problem }) => ({ name, passed, problem }))).toEqual(
      probes.map(({ name }) => ({ name, passed: true, problem: undefined })),
    );
  });
});

describe('a version that cannot reach its tables fails the probe that reaches them', () => {
  test('the contacts API with its keys table out of reach: the unknown-key probe gets a 5xx, not 401', async () => {
    const entry = await loadEntry('../../lambda/contacts/api/contacts-entry', { KEYS_TABLE_NAME: 'no-such-keys-table' });
    const [unknownKey] = await runProbes(invoker(entry), [probe(contactsProbes(), /unknown key/)]);
    expect(unknownKey!.passed).toBe(false);
    expect(unknownKey!.status).toBeGreaterThanOrEqual(500);
    expect(unknownKey!.problem).toMatch(/^expected status 401, got 5\d\d: /);
  });

  test('the contacts API with its contacts table out of reach: the canary check answers 503 naming the error', async () => {
    const entry = await loadEntry('../../lambda/contacts/api/contacts-entry', { CONTACTS_TABLE_NAME: 'no-such-contacts-table' });
    const [canary] = await runProbes(invoker(entry), [probe(contactsProbes(), /canary/)]);
    expect(canary).toMatchObject({ passed: false, status: 503 });
  });

  test('the ingest API with its keys table out of reach: the unknown-key probe gets a 5xx, not 401', async () => {
    const entry = await loadEntry('../../lambda/ingest/api/ingest-entry', { KEYS_TABLE_NAME: 'no-such-keys-table' });
    const [unknownKey] = await runProbes(invoker(entry), [probe(ingestProbes(), /unknown publishable key/)]);
    expect(unknownKey!.passed).toBe(false);
    expect(unknownKey!.status).toBeGreaterThanOrEqual(500);
  });

  test('the alert notifier with its alerts table out of reach: the canary issue change is answered as a failed record', async () => {
    const entry = await loadEntry('../../lambda/alerts/notifier-entry', { ALERTS_TABLE_NAME: 'no-such-alerts-table' });
    const [change] = await runProbes(invoker(entry), [probe(notifierProbes(), /canary factory's issue/)]);
    expect(change!.passed).toBe(false);
    expect(change!.problem).toMatch(/^expected the answer \{"batchItemFailures":\[\]\}, got \{"batchItemFailures":\[\{"itemIdentifier":"1"\}\]\}/);
  });

  test('the alert deliverer with its alerts table out of reach: the probe message is answered as failed', async () => {
    const entry = await loadEntry('../../lambda/alerts/deliverer-entry', { ALERTS_TABLE_NAME: 'no-such-alerts-table' });
    const [message] = await runProbes(invoker(entry), [probe(delivererProbes(), /does not exist/)]);
    expect(message!.passed).toBe(false);
    expect(message!.problem).toContain('"itemIdentifier":"pre-traffic-check"');
  });

  test('the control room with its contacts table out of reach: listing the canary factory fails', async () => {
    const entry = await loadEntry('../../lambda/control/control-room-entry', { CONTACTS_TABLE_NAME: 'no-such-contacts-table' });
    const [list] = await runProbes(invoker(entry), [probe(controlRoomProbes(HOOK_ROLE), /listed/)]);
    expect(list!.passed).toBe(false);
    expect(list!.status).toBeGreaterThanOrEqual(500);
  });
});

describe("the notifier's canary issue change", () => {
  test('takes the real path: its alert is stored once however often the probe runs, and nothing reaches the platform topic or the delivery queue', async () => {
    const published: string[] = [];
    const queued: unknown[] = [];
    const store = alertStoreOf(testDoc(), tables.alerts);
    const notifier = createNotifierHandler(
      {
        store,
        queue: { enqueue: async (message) => void queued.push(message) },
        topic: { publish: async (subject) => void published.push(subject) },
        linkBase: 'https://control.example',
      },
      issueChangeOf,
      new JsonLogger({ service: 'contacts-alert-notifier', level: 'SILENT' }),
    );
    const change = probe(notifierProbes(), /canary factory's issue/);
    const outcomes = await runProbes(async (payload) => ({ payload: JSON.stringify(await notifier(JSON.parse(payload))) }), [change, change]);
    expect(outcomes.map((o) => o.passed)).toEqual([true, true]);
    expect([published, queued]).toEqual([[], []]);
    const issueId = /issue#fac_canary#(iss_\w+)/.exec(JSON.stringify(change.event))![1]!;
    const again = await store.recordAlert({
      factoryId: CANARY_FACTORY_ID,
      alertId: `new:${issueId}:2026-01-01T00:00:00.000Z`,
      type: 'issue.created',
      issueId,
      occurredAt: '2026-01-01T00:00:00.000Z',
      at: new Date().toISOString(),
      expiresAt: Math.floor(Date.now() / 1000) + 3600,
    });
    expect(again).toEqual({ created: false, fannedOut: true });
  });
});

describe("the deliverer's canary delivery", () => {
  const delivery = () => probe(delivererProbes(), /canary receiver/);

  test("reaches the receiver, signed with the destination's secret, and the receiver verifies it (204)", async () => {
    const before = received.length;
    const [outcome] = await runProbes(invoker(await loadEntry('../../lambda/alerts/deliverer-entry', receiverEnv())), [delivery()]);
    expect(outcome).toMatchObject({ passed: true, status: 200 });
    expect(received.slice(before)).toEqual([204]);
  });

  test('fails when the deliverer signs with another secret: the receiver answers 401', async () => {
    const [outcome] = await runProbes(invoker(await loadEntry('../../lambda/alerts/deliverer-entry', receiverEnv(newWebhookSecret()))), [delivery()]);
    expect(outcome).toMatchObject({ passed: false, status: 502 });
    expect(outcome!.problem).toContain('answered 401');
  });

  test('fails when the stack gave the deliverer no destination', async () => {
    const [outcome] = await runProbes(invoker(await loadEntry('../../lambda/alerts/deliverer-entry', { CANARY_RECEIVER_URL: '', CANARY_WEBHOOK_SECRET: '' })), [
      delivery(),
    ]);
    expect(outcome).toMatchObject({ passed: false, status: 500 });
  });
});

describe("the contacts function's canary check", () => {
  test('leaves exactly one contact in the canary factory however often it runs, and the control room lists it', async () => {
    const contacts = await loadEntry('../../lambda/contacts/api/contacts-entry');
    const self = probe(contactsProbes(), /canary/);
    await runProbes(invoker(contacts), [self, self, self]);
    const control = await loadEntry('../../lambda/control/control-room-entry');
    const [{ event }] = controlRoomProbes(HOOK_ROLE).slice(1);
    const answer = (await control(
      { ...(event as object), body: JSON.stringify({ operation: 'contacts.list', factoryId: CANARY_FACTORY_ID }) } as never,
      lambdaContext(),
    )) as { body: string };
    const listed = JSON.parse(answer.body) as { contacts: { email: string }[] };
    expect(listed.contacts.map((c) => c.email)).toEqual([CANARY_EMAIL]);
  });

  test("is run only for the hook's exact event: any other event goes to the API, which does not answer it 200", async () => {
    const contacts = await loadEntry('../../lambda/contacts/api/contacts-entry');
    const answer = (await contacts({ preTrafficSelfCheck: 'something-else' } as never, lambdaContext())) as { statusCode: number };
    expect(answer.statusCode).not.toBe(200);
  });
});
