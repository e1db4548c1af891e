/**
 * The lone-error request of each protocol as the ingest function receives it (API Gateway's proxy event, built by
 * npm start's own HTTP adapter), for the in-process benchmarks (ingest-function.ts): the typical error
 * (tools/storm/typical-error.ts) once as the own SDK sends it, once in the envelope Sentry's browser SDK writes
 * with its own transport, with the headers bench:cpu sends. The event id is a placeholder the driver replaces
 * with a fresh one per request, so every request is a new event and the driver does no JSON work of its own.
 */
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { dsnFor } from '../../lambda/ingest/sentry/dsn';
import { incomingMessageOf, toProxyEvent } from '../../local/harness/http-adapter';
import { envelopeUrlOf, eventEnvelope, sentryPage } from '../storm/sentry-page';
import { TYPICAL_SITE, TYPICAL_USER_AGENT, typicalError, typicalOwnEvent, typicalSentryEvent } from '../storm/typical-error';

export type LoneErrorProtocol = 'own' | 'sentry';

/** The event id each request's body carries until the driver replaces it: as a UUID (own) or 32 hex digits (Sentry). */
export const EVENT_ID_PLACEHOLDER = '00000000-0000-4000-8000-000000000000';

export interface LoneErrorRequest {
  protocol: LoneErrorProtocol;
  event: APIGatewayProxyEvent;
  /** The placeholder as this protocol's body spells it. */
  placeholder: string;
  /** How a fresh id is spelt: a UUID, or a UUID without its dashes (Sentry's event_id). */
  idForm: 'uuid' | 'hex';
}

/** The host the requests name (npm start's; the function only reads the path and query). */
const BASE_URL = 'http://127.0.0.1:3000';

/** The headers a visitor's browser sends with either protocol (bench:cpu's). */
const PAGE_HEADERS = { Origin: TYPICAL_SITE, 'Content-Type': 'text/plain;charset=UTF-8', 'User-Agent': TYPICAL_USER_AGENT };

function proxyEvent(url: string, headers: Record<string, string>, body: string): APIGatewayProxyEvent {
  const raw = Object.entries(headers).flat();
  return toProxyEvent(incomingMessageOf('POST', url, raw), Buffer.from(body), 'bench-request', '10.0.0.1');
}

/** The own SDK's request: `{ events: [the typical error] }` under the key as a Bearer token. */
function ownRequest(key: string): LoneErrorRequest {
  const body = JSON.stringify({ events: [typicalOwnEvent(typicalError(), EVENT_ID_PLACEHOLDER)] });
  return {
    protocol: 'own',
    event: proxyEvent(`${BASE_URL}/ingest/v1/events`, { ...PAGE_HEADERS, Authorization: `Bearer ${key}` }, body),
    placeholder: EVENT_ID_PLACEHOLDER,
    idForm: 'uuid',
  };
}

/** Sentry's browser SDK's request: the envelope its fetch transport sends to the DSN's envelope URL (the key in the query). */
async function sentryRequest(key: string, keyId: string): Promise<LoneErrorRequest> {
  let sent: { url: string; body: string } | undefined;
  const transport = sentryPage(envelopeUrlOf(dsnFor(BASE_URL, key, keyId)), (async (url: string, init: { body: string }) => {
    sent = { url, body: init.body };
    return { status: 200, headers: { get: () => null } };
  }) as unknown as Parameters<typeof sentryPage>[1]);
  const answer = await transport.send(eventEnvelope(typicalSentryEvent(typicalError(), EVENT_ID_PLACEHOLDER), new Date().toISOString()));
  if (!sent || answer.outcome !== 'acknowledged') throw new Error("Sentry's transport sent no envelope");
  return {
    protocol: 'sentry',
    event: proxyEvent(sent.url, PAGE_HEADERS, sent.body),
    placeholder: EVENT_ID_PLACEHOLDER.replace(/-/g, ''),
    idForm: 'hex',
  };
}

/** The request of `protocol` for the publishable key `key` (its id `keyId`: the DSN's project). */
export async function loneErrorRequest(protocol: LoneErrorProtocol, key: string, keyId: string): Promise<LoneErrorRequest> {
  return protocol === 'own' ? ownRequest(key) : sentryRequest(key, keyId);
}
