import type { Server } from 'node:http';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { send } from '../support/http';
import { ingestEntryWith } from '../support/ingest-entry';
import { linesWrittenBy } from '../support/output';
import { EVENTS, validEvent } from '../support/ingest';
import { issueKey, issuePublishableKey, newFactoryId } from '../support/local-api';

/**
 * What an operator sees of the ingest API: one JSON log line per request
 * (never the key, never the full client address) and one EMF metrics
 * document per request, under the ingest function's own service name.
 */
const SITE = 'https://shop.example.com';
const CLIENT = '127.77.88.99';
let handler: ApiHandler;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  // The logger and the metrics read their settings once, at load: a fresh copy of the modules.
  handler = await ingestEntryWith({ LOG_LEVEL: 'INFO', POWERTOOLS_METRICS_DISABLED: 'false', POWERTOOLS_SERVICE_NAME: 'contacts-ingest' });
  server = createHttpAdapter(handler);
  baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** The JSON lines written to stdout and stderr while `work` runs. */
async function captured(work: () => Promise<unknown>): Promise<Record<string, any>[]> {
  return (await linesWrittenBy(work)).lines;
}

const post = (key: string, body: unknown, origin = SITE) =>
  send(baseUrl, 'POST', `${EVENTS}?key=${key}`, {
    headers: { Origin: origin, 'Content-Type': 'text/plain' },
    body,
    localAddress: CLIENT,
  });

test('one log line per request with its outcome, and no key or client address in any line', async () => {
  const factoryId = newFactoryId('ops');
  const { key, keyId } = await issuePublishableKey(factoryId, [SITE]);
  const event = validEvent();
  const lines = await captured(async () => {
    await post(key, { events: [event, { eventId: 'bad' }] });
    await post(key, { events: [event] });
  });
  const requests = lines.filter((line) => line.message === 'request');
  expect(requests).toEqual([
    expect.objectContaining({
      service: 'contacts-ingest',
      route: 'POST /ingest/v1/events',
      status: 202,
      factoryId,
      keyId,
      origin: SITE,
      accepted: 1,
      duplicates: 0,
      rejected: 1,
      clientNetwork: '127.77.88.0/24',
    }),
    expect.objectContaining({ status: 202, accepted: 0, duplicates: 1, rejected: 0 }),
  ]);
  const text = JSON.stringify(lines);
  expect(text).not.toContain(key.slice(5));
  expect(text).not.toContain(CLIENT);
});

test('metrics count events accepted, duplicates, rejected, refused origins and exposed secret keys', async () => {
  const factoryId = newFactoryId('ops');
  const { key } = await issuePublishableKey(factoryId, [SITE]);
  const secret = await issueKey(factoryId);
  const event = validEvent();
  const lines = await captured(async () => {
    await post(key, { events: [event, validEvent(), { eventId: 'bad' }] });
    await post(key, { events: [event] });
    await post(key, { events: [validEvent()] }, 'https://elsewhere.example');
    await post(secret.key, { events: [validEvent()] });
  });
  const emf = lines.filter((line) => line._aws);
  expect(emf).toHaveLength(4);
  for (const document of emf) expect(document).toMatchObject({ service: 'contacts-ingest', RequestsTotal: 1 });
  expect(emf[0]).toMatchObject({ EventsAccepted: 2, EventsDuplicate: 0, EventsRejected: 1 });
  expect(emf[1]).toMatchObject({ EventsAccepted: 0, EventsDuplicate: 1 });
  expect(emf[2]).toMatchObject({ OriginsRefused: 1 });
  expect(emf[3]).toMatchObject({ ExposedSecretKeys: 1 });
  const declared = emf[3]._aws.CloudWatchMetrics[0].Metrics.map((m: { Name: string }) => m.Name);
  expect(declared).toContain('ExposedSecretKeys');
  expect(JSON.stringify(lines)).not.toContain(secret.key.slice(5));
  const exposedLog = lines.find((line) => line.message === 'request' && line.exposedKeyId);
  expect(exposedLog).toMatchObject({ status: 401, exposedKeyId: secret.keyId, exposedFactoryId: factoryId });
});
