import type { Server } from 'node:http';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { send } from '../support/http';
import { EVENTS, randomClient, validEvent } from '../support/ingest';
import { ingestEntryWith } from '../support/ingest-entry';
import { issuePublishableKey, newFactoryId } from '../support/local-api';

/**
 * The per-address limit as the deployed function holds it: the visitor counted in the container, its limiter item
 * written only near the limit (docs/capacity.md#the-visitors-limit-counted-in-the-container). One container
 * answers exactly as the rule: a burst of 7 from one address, then 429 with Retry-After.
 */
const SITE = 'https://shop.example.com';
let handler: ApiHandler;
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  handler = await ingestEntryWith({ LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true', POWERTOOLS_SERVICE_NAME: 'contacts-ingest' });
  server = createHttpAdapter(handler);
  baseUrl = `http://127.0.0.1:${await listen(server, 0, '127.0.0.1')}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const post = (key: string, from: string) =>
  send(baseUrl, 'POST', `${EVENTS}?key=${key}`, {
    headers: { Origin: SITE, 'Content-Type': 'text/plain' },
    body: { events: [validEvent()] },
    localAddress: from,
  });

test('the deployed function: a burst of 7 from one address is accepted, the 8th is 429 with Retry-After, another address still passes', async () => {
  const { key } = await issuePublishableKey(newFactoryId('deployed-limit'), [SITE]);
  const from = randomClient();
  const statuses = [];
  for (let i = 0; i < 7; i += 1) statuses.push((await post(key, from)).status);
  expect(statuses).toEqual(Array(7).fill(202));
  const limited = await post(key, from);
  expect(limited.status).toBe(429);
  expect(limited.headers['retry-after']).toBe('1');
  expect(limited.json.error).toMatch(/Too many requests from your address with this key/);
  expect((await post(key, randomClient())).status).toBe(202);
});
