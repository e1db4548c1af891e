import { gzipSync } from 'node:zlib';
import { SENTRY_LIMITS } from '../../../../lambda/ingest/limits';
import { dsnFor, sentryProjectId, sentryPublicKey } from '../../../../lambda/ingest/sentry/dsn';
import { KEY_ID, memoryIngestApi, ORIGIN, PK } from '../../../support/ingest-memory';

/** A Sentry route's body, read before its key (api/sentry-body.ts), and the key's places, through the handler on in-memory ports. */
const AUTH = `Sentry sentry_key=${sentryPublicKey(PK)}, sentry_version=7`;
const ENVELOPE = `/ingest/sentry/api/${sentryProjectId(KEY_ID)}/envelope/`;
const EVENT = { exception: { values: [{ type: 'TypeError', value: 'x is undefined' }] } };
const envelope = (header: Record<string, unknown> = {}) =>
  `${JSON.stringify({ event_id: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', ...header })}\n{"type":"event"}\n${JSON.stringify(EVENT)}\n`;

describe("a Sentry route's body", () => {
  test('over the limit as sent is 413, before any key is asked for', async () => {
    const { send } = memoryIngestApi();
    const answer = await send({ path: ENVELOPE, body: 'x'.repeat(SENTRY_LIMITS.bodyBytes + 1), headers: { origin: ORIGIN } });
    expect(answer).toMatchObject({ status: 413, body: { error: expect.stringMatching(/the limit is 524288 bytes/) } });
  });

  test('gzip-compressed, as the server SDKs send it, is read', async () => {
    const { reports, send } = memoryIngestApi();
    const answer = await send({
      path: ENVELOPE,
      body: gzipSync(envelope()),
      headers: { 'x-sentry-auth': AUTH, origin: ORIGIN, 'content-encoding': 'gzip', 'content-type': 'application/x-sentry-envelope' },
    });
    expect(answer.status).toBe(200);
    expect(reports.events.size).toBe(1);
  });

  test('in an encoding the ingest does not read is 415', async () => {
    const { send } = memoryIngestApi();
    expect((await send({ path: ENVELOPE, body: envelope(), headers: { 'x-sentry-auth': AUTH, origin: ORIGIN, 'content-encoding': 'compress' } })).status).toBe(
      415,
    );
  });

  test('that is not an envelope is 400 in words', async () => {
    const { send } = memoryIngestApi();
    const answer = await send({ path: ENVELOPE, body: 'not an envelope', headers: { 'x-sentry-auth': AUTH, origin: ORIGIN } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toEqual(expect.any(String));
  });

  test('is taken under any content type, or none', async () => {
    const { send } = memoryIngestApi();
    const statuses: number[] = [];
    for (const [index, headers] of [{ 'content-type': 'text/plain;charset=UTF-8' }, {} as Record<string, string>].entries()) {
      const body = envelope({ event_id: `a1b2c3d4e5f60718293a4b5c6d7e8f9${index}` });
      statuses.push((await send({ path: ENVELOPE, body, headers: { 'x-sentry-auth': AUTH, origin: ORIGIN, ...headers } })).status);
    }
    expect(statuses).toEqual([200, 200]);
  });
});

describe("a Sentry request's key", () => {
  test("may be the envelope header's dsn alone", async () => {
    const { send } = memoryIngestApi();
    const dsn = dsnFor('https://ingest.example.com', PK, KEY_ID);
    expect((await send({ path: ENVELOPE, body: envelope({ dsn }), headers: { origin: ORIGIN } })).status).toBe(200);
  });

  test('or ?sentry_key=', async () => {
    const { send } = memoryIngestApi();
    expect((await send({ path: ENVELOPE, body: envelope(), headers: { origin: ORIGIN }, query: { sentry_key: sentryPublicKey(PK) } })).status).toBe(200);
  });

  test("missing, it is 401 in the Sentry places' words (the DSN), not the ingest API's", async () => {
    const { send } = memoryIngestApi();
    const answer = await send({ path: ENVELOPE, body: envelope(), headers: { origin: ORIGIN } });
    expect(answer).toMatchObject({ status: 401, body: { error: expect.stringMatching(/^Missing key: a Sentry SDK sends it from its DSN/) } });
  });
});
