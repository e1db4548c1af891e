import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { dsnFor, sentryProjectId } from '../../lambda/ingest/sentry/dsn';
import { ingestTenant, randomClient, storedReports } from '../support/ingest';
import { realIngestDependencies, startLocalHost, type LocalApi } from '../support/local-api';

/**
 * Keys a sender names are data (issue 48): a tag, a debug id's script URL, a
 * Sentry context, extra or user field named like a property every object has
 * (`constructor`, `toString`, `hasOwnProperty`, `__proto__`…) is taken on
 * both protocols (202, 200) and stored as the key it is, never read as the
 * object's own machinery: `__proto__` too, a plain own key of the stored
 * event's tags and debug ids (kept in its JSON detail, never a DynamoDB map).
 * Over HTTP to DynamoDB Local, every map-typed field at once.
 */
const NAMES = ['constructor', 'toString', 'hasOwnProperty', 'valueOf', '__proto__', 'prototype', '__defineGetter__', 'isPrototypeOf', 'toJSON', 'then'];

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalHost(realIngestDependencies());
});
afterAll(() => api.close());

const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...NAMES) }, { weight: 1, arbitrary: fc.string({ minLength: 1, maxLength: 12 }) });

/** JSON text with `key` as an own key of every map (JSON.stringify would drop a `__proto__` made with an object literal). */
const mapOf = (key: string, value: unknown) => `{${JSON.stringify(key)}:${JSON.stringify(value)}}`;

test('names every object has, in every map-typed field of both protocols, are taken and stored as data', async () => {
  const page = await ingestTenant(api, undefined, 'keys');
  const publicKey = new URL(dsnFor(api.baseUrl, page.key, page.keyId)).username;
  const envelopePath = `/ingest/sentry/api/${sentryProjectId(page.keyId)}/envelope/?sentry_key=${publicKey}`;
  const sent: { key: string; own: string; sentry: string }[] = [];
  await fc.assert(
    fc.asyncProperty(name, async (key) => {
      const own = randomUUID();
      const debugId = randomUUID();
      const ownBody = `{"events":[{"eventId":"${own}","message":"keys","tags":${mapOf(key, 'v')},"debugIds":${mapOf(key, debugId)}}]}`;
      const ownAnswer = await page.post('/ingest/v1/events', undefined, { raw: ownBody });
      expect([ownAnswer.status, ownAnswer.json]).toEqual([202, { accepted: 1, duplicates: 0, rejected: [] }]);
      const sentry = randomUUID().replace(/-/g, '');
      const event = `{"event_id":"${sentry}","message":"keys","tags":${mapOf(key, 'v')},"contexts":${mapOf(key, { a: 1 })},"extra":${mapOf(key, 1)},"user":${mapOf(key, 'x')},"request":{"url":"https://app.example.com/","headers":${mapOf(key, 'h')}},"debug_meta":{"images":[{"type":"sourcemap","code_file":${JSON.stringify(key)},"debug_id":"${debugId}"}]}}`;
      const pairs = `{"event_id":"${randomUUID().replace(/-/g, '')}","message":"pairs","tags":[[${JSON.stringify(key)},"v"]]}`;
      const envelope = [`{"event_id":"${sentry}"}`, '{"type":"event"}', event, '{"type":"event"}', pairs, ''].join('\n');
      const sentryAnswer = await api.request('POST', envelopePath, {
        headers: { Origin: page.origin, 'Content-Type': 'text/plain' },
        body: envelope,
        localAddress: randomClient(),
      });
      expect([sentryAnswer.status, sentryAnswer.json]).toEqual([200, { id: sentry }]);
      sent.push({ key, own, sentry });
    }),
    { numRuns: 12, examples: NAMES.map((each) => [each] as [string]) },
  );
  const stored = await storedReports(page.factoryId);
  const byId = new Map(stored.map((item) => [item.eventId as string, item]));
  for (const { key, own, sentry } of sent) {
    const trimmed = key.trim();
    const expected = trimmed === '' ? undefined : trimmed;
    for (const id of [own, `${sentry.slice(0, 8)}-${sentry.slice(8, 12)}-${sentry.slice(12, 16)}-${sentry.slice(16, 20)}-${sentry.slice(20)}`]) {
      const item = byId.get(id);
      expect(item).toBeDefined();
      if (expected !== undefined && !/[\u0000-\u001f]/.test(key)) {
        expect(Object.hasOwn(item?.tags ?? {}, expected)).toBe(true);
        expect(Object.hasOwn(item?.debugIds ?? {}, expected)).toBe(true);
      }
    }
  }
}, 120_000);
