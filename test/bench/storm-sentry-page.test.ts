import { readEnvelopeRequest } from '../../lambda/ingest/sentry/sentry-request';
import { readSentryEvent } from '../../lambda/ingest/sentry/sentry-event';
import type { PageError } from '../../tools/storm/minified-app';
import { envelopeUrlOf, eventEnvelope, outcomeOf, sentryBrowserEvent, sentryPage, SENTRY_BROWSER_SDK } from '../../tools/storm/sentry-page';

/** The storm bench's Sentry page (tools/storm/sentry-page.ts): what it sends is what the service reads, and it drops as the SDK drops. */

const SITE = 'https://shop.example.com';
const URL_OF_APP = `${SITE}/assets/app-131dc0c0.js`;
const ERROR: PageError = {
  type: 'TypeError',
  value: "Cannot read properties of undefined (reading 'items')",
  stack: `TypeError: Cannot read properties of undefined (reading 'items')\n    at o (${URL_OF_APP}:2:54)\n    at e (${URL_OF_APP}:2:80)\n    at r (${URL_OF_APP}:2:114)`,
  debugIds: { [URL_OF_APP]: '3d11fdbb-678d-44ec-a3b6-b8f35ffebdb2' },
};
const EVENT_ID = '0b6e4f3e-1c2d-4a5b-8c7d-9e0f1a2b3c4d';

type Fetch = Parameters<typeof sentryPage>[1];

/** A fetch answering `status` with `headers`, keeping each body it was given. */
function fakeFetch(status: number, headers: Record<string, string> = {}): { fetch: Fetch; bodies: string[] } {
  const bodies: string[] = [];
  const fetch = (async (_url: string, init: { body: string }) => {
    bodies.push(init.body);
    return { status, headers: { get: (name: string) => headers[name.toLowerCase()] ?? null } };
  }) as unknown as Fetch;
  return { fetch, bodies };
}

const envelope = () =>
  eventEnvelope(
    sentryBrowserEvent(ERROR, { eventId: EVENT_ID, pageUrl: `${SITE}/cart`, release: 'web@4.2.0', timestampS: 1_796_000_000 }),
    '2026-11-27T10:00:00.000Z',
  );

describe("the storm bench's Sentry page", () => {
  test("the envelope URL is the DSN's path + api/<project>/envelope/ with the key, version and client in the query", () => {
    const dsn = `http://${'ab'.repeat(32)}@127.0.0.1:3000/ingest/sentry/123456789012345`;
    expect(envelopeUrlOf(dsn)).toBe(
      `http://127.0.0.1:3000/ingest/sentry/api/123456789012345/envelope/?sentry_version=7&sentry_key=${'ab'.repeat(32)}&sentry_client=sentry.javascript.browser%2F${SENTRY_BROWSER_SDK.version}`,
    );
  });

  test("the envelope the SDK's transport sends reads back as the same event: id, stack frames and debug ids", async () => {
    const { fetch, bodies } = fakeFetch(200);
    expect((await sentryPage('http://127.0.0.1:1/e', fetch).send(envelope())).outcome).toBe('acknowledged');
    const request = readEnvelopeRequest(Buffer.from(bodies[0] as string));
    const reading = readSentryEvent(request.events[0] as Record<string, unknown>, request.header.event_id);
    if (!reading.ok) throw new Error(reading.problems.join('; '));
    expect(reading.value.eventId).toBe(EVENT_ID);
    expect(
      reading.value.exception?.stack
        ?.split('\n')
        .slice(1)
        .map((line) => line.trim()),
    ).toEqual([`at o (${URL_OF_APP}:2:54)`, `at e (${URL_OF_APP}:2:80)`, `at r (${URL_OF_APP}:2:114)`]);
    expect(reading.value.debugIds).toEqual(ERROR.debugIds);
  });

  test("an event answered 429 is dropped, and the page's next one is held back for the X-Sentry-Rate-Limits window, never sent", async () => {
    const { fetch, bodies } = fakeFetch(429, { 'retry-after': '60', 'x-sentry-rate-limits': '60::key' });
    const page = sentryPage('http://127.0.0.1:1/e', fetch);
    expect((await page.send(envelope())).outcome).toBe('dropped-on-429');
    expect((await page.send(envelope())).outcome).toBe('held-back');
    expect(bodies).toHaveLength(1);
  });

  test('a 5xx or a network error is a failure the SDK drops, never sent again', async () => {
    expect(outcomeOf({ statusCode: 503 }, false)).toBe('failed');
    const failing = (async () => {
      throw new TypeError('Failed to fetch');
    }) as unknown as Fetch;
    expect((await sentryPage('http://127.0.0.1:1/e', failing).send(envelope())).outcome).toBe('failed');
  });
});
