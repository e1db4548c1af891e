/**
 * What each function's pre-traffic hook sends its new version, and what it
 * must answer (docs/deploying.md#the-pre-traffic-check). Each probe proves a
 * step a release can break on AWS and not here: the bundle loads on the
 * runtime, the handler answers, and the version's role reaches its tables
 * under the names its environment gives. Nothing needs seeding: the unknown
 * keys are refused after a real lookup, and the canary contact is written
 * by the check itself. Free of CDK imports: test/deploy runs these very
 * probes against the handlers on DynamoDB Local.
 */
import { CANARY_DELIVERY_EVENT } from '../lambda/alerts/canary-delivery';
import { API_PREFIXES } from '../lambda/infrastructure/http/prefixes';
import { CANARY_FACTORY_ID } from '../lambda/kernel/canary';
import type { Probe } from '../lambda/infrastructure/deploy/probes';
import { SELF_CHECK_EVENT } from '../lambda/infrastructure/deploy/self-check';
import { issueIdOf } from '../lambda/ingest/grouping/fingerprint';

export type { Probe };

/** Well-formed keys no one holds (never issued: issued keys are 43 random characters). */
export const UNKNOWN_SECRET_KEY = 'dfsk_pre-traffic-check-unknown-key';
export const UNKNOWN_PUBLISHABLE_KEY = 'dfpk_pre-traffic-check-unknown-key';
/** The website the ingest probes claim to come from: `.invalid` is reserved (RFC 2606). */
export const PROBE_ORIGIN = 'https://pre-traffic-check.invalid';

/** An API Gateway REST proxy event, as the stage's `{proxy+}` resources send it. */
export function apiGatewayEvent(method: string, path: string, headers: Record<string, string> = {}, body: string | null = null) {
  return {
    resource: '/{proxy+}',
    path,
    httpMethod: method,
    headers,
    multiValueHeaders: Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, [value]])),
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { proxy: path.slice(1) },
    stageVariables: null,
    requestContext: { requestId: 'pre-traffic-check', identity: { sourceIp: '192.0.2.1' } },
    body,
    isBase64Encoded: false,
  };
}

/** A function URL call (payload format 2.0): a POST of `body`, signed by `principal` when one is given. */
export function functionUrlEvent(body: Record<string, unknown>, principal?: string) {
  return {
    version: '2.0',
    rawPath: '/',
    rawQueryString: '',
    headers: { 'content-type': 'application/json' },
    requestContext: {
      requestId: 'pre-traffic-check',
      http: { method: 'POST', path: '/', sourceIp: '192.0.2.1' },
      ...(principal === undefined ? {} : { authorizer: { iam: { userArn: principal } } }),
    },
    body: JSON.stringify(body),
    isBase64Encoded: false,
  };
}

const NO_SUCH_CONTACT = `${API_PREFIXES.contacts}contacts/ct_0000000000000000`;

/** The contacts API function's probes. */
export function contactsProbes(): Probe[] {
  return [
    {
      name: 'no key: 401 (the bundle loads on the runtime, routes and answers; no DynamoDB call)',
      event: apiGatewayEvent('GET', NO_SUCH_CONTACT),
      expectStatus: 401,
    },
    {
      name: 'an unknown key: 401 after its lookup (UpdateItem on the keys table; a denied or failed call answers 5xx)',
      event: apiGatewayEvent('GET', NO_SUCH_CONTACT, { Authorization: `Bearer ${UNKNOWN_SECRET_KEY}` }),
      expectStatus: 401,
    },
    {
      name: `the canary factory's contact written and read back (${CANARY_FACTORY_ID}: UpdateItem and GetItem on the contacts table)`,
      event: SELF_CHECK_EVENT,
      expectStatus: 200,
    },
  ];
}

/** The ingest API function's probes. */
export function ingestProbes(): Probe[] {
  const events = `${API_PREFIXES.ingest}events`;
  return [
    {
      name: "a website's preflight: 204 (the bundle loads on the runtime and answers CORS; no DynamoDB call)",
      event: apiGatewayEvent('OPTIONS', events, { Origin: PROBE_ORIGIN }),
      expectStatus: 204,
    },
    {
      name: 'an unknown publishable key: 401 after its lookup (UpdateItem on the keys table; a denied or failed call answers 5xx)',
      event: apiGatewayEvent(
        'POST',
        events,
        { Authorization: `Bearer ${UNKNOWN_PUBLISHABLE_KEY}`, Origin: PROBE_ORIGIN, 'Content-Type': 'application/json' },
        '{"events":[]}',
      ),
      expectStatus: 401,
    },
  ];
}

/**
 * The control-room function's probes. `principal` is the hook's own role:
 * the function's audit line names it as the caller of the signed probe.
 */
export function controlRoomProbes(principal: string): Probe[] {
  const list = { operation: 'contacts.list', factoryId: CANARY_FACTORY_ID, limit: 1 };
  return [
    {
      name: 'an unsigned call: 403 (the bundle loads on the runtime and reads function URL calls; no DynamoDB call)',
      event: functionUrlEvent(list),
      expectStatus: 403,
    },
    {
      name: `the canary factory's contacts listed (${CANARY_FACTORY_ID}: Query on the contacts table)`,
      event: functionUrlEvent(list, principal),
      expectStatus: 200,
    },
  ];
}

/** The canary's one event, as the tally finds it in a stream record: an issue of fac_canary, expiring in 2100. */
const CANARY_EVENT_ID = '00000000-0000-4000-8000-000000000001';
const CANARY_FINGERPRINT = ['custom', 'pre-traffic-check'];

/**
 * The tally's probes: it is fed by the reports table's stream, so its
 * probes are stream batches, named by a shard of their own. The second is
 * the canary factory's one event, counted into its issue and listed on its
 * pages the first time, found counted (the shard's mark) every time after:
 * the release's role reaches the table, and the probe leaves nothing new.
 */
export function tallyProbes(): Probe[] {
  const shardId = 'shardId-pre-traffic-check';
  const pk = `event#${CANARY_FACTORY_ID}#${CANARY_EVENT_ID}`;
  const image = {
    pk: { S: pk },
    factoryId: { S: CANARY_FACTORY_ID },
    keyId: { S: 'key_pretrafficcheck00' },
    origin: { S: PROBE_ORIGIN },
    eventId: { S: CANARY_EVENT_ID },
    type: { S: 'message' },
    message: { S: 'pre-traffic check' },
    fingerprint: { L: [{ S: 'pre-traffic-check' }] },
    receivedAt: { S: '2026-01-01T00:00:00.000Z' },
    expiresAt: { N: '4102444800' },
    writeToken: { S: 'pre-traffic-check' },
    issue: { S: issueIdOf(CANARY_FACTORY_ID, CANARY_FINGERPRINT) },
  };
  return [
    {
      name: "an empty batch: answered with a tumbling window's state (the bundle loads on the runtime; no DynamoDB call)",
      event: { Records: [], shardId, state: {} },
    },
    {
      name: `the canary factory's one event counted into its issue (${CANARY_FACTORY_ID}: PutItem and UpdateItem on the reports table; counted once, whatever the number of releases)`,
      event: {
        Records: [
          {
            eventID: 'pre-traffic-check',
            eventName: 'INSERT',
            eventSource: 'aws:dynamodb',
            dynamodb: { Keys: { pk: { S: pk } }, NewImage: image, SequenceNumber: '1' },
          },
        ],
        shardId,
        state: {},
      },
    },
  ];
}

/** What a stream or queue consumer answers when every record of its batch went well. */
const ALL_TAKEN = { batchItemFailures: [] };

/**
 * The alert notifier's probes: an empty batch, then a change of the canary
 * factory's issue (the one the tally's probe counts), which takes the
 * notifier's real path (lambda/alerts/notify.ts): the factory's alert
 * settings read (GetItem), the issue's new-issue alert stored (a
 * conditional PutItem: once ever, whatever the number of releases), the
 * factory's destinations read (Query: it has none, so no delivery is
 * queued) and the alert marked sent (UpdateItem). A refused call answers
 * the record as failed. The canary factory's alerts never reach the
 * platform topic.
 */
export function notifierProbes(): Probe[] {
  const issue = issueIdOf(CANARY_FACTORY_ID, CANARY_FINGERPRINT);
  const image = {
    pk: { S: `issue#${CANARY_FACTORY_ID}#${issue}` },
    title: { S: 'pre-traffic check' },
    status: { S: 'open' },
    count: { N: '1' },
    firstSeen: { S: '2026-01-01T00:00:00.000Z' },
    lastSeen: { S: '2026-01-01T00:00:00.000Z' },
  };
  return [
    { name: 'an empty batch: every record taken (the bundle loads on the runtime; no call)', event: { Records: [] }, expectPayload: ALL_TAKEN },
    {
      name: `a change of the canary factory's issue (${CANARY_FACTORY_ID}): its settings read, its alert stored once and marked sent (GetItem, PutItem, Query, UpdateItem on the alerts table), never on the platform topic`,
      event: {
        Records: [
          {
            eventID: 'pre-traffic-check',
            eventName: 'INSERT',
            eventSource: 'aws:dynamodb',
            dynamodb: { Keys: { pk: image.pk }, NewImage: image, SequenceNumber: '1' },
          },
        ],
      },
      expectPayload: ALL_TAKEN,
    },
  ];
}

/**
 * The alert deliverer's probes: an empty batch; a message for a delivery
 * of the canary factory that does not exist: looked up (GetItem on the
 * alerts table: a refused call answers the message as failed) and dropped
 * as stale, with no POST; then one signed delivery to the stack's canary
 * receiver (lib/canary-receiver.ts), the real sending path: signing, the
 * outbound address guard, DNS, TLS and the POST, which the receiver
 * answers 204 only when the signature verifies.
 */
export function delivererProbes(): Probe[] {
  const message = { factoryId: CANARY_FACTORY_ID, destinationId: 'dst_pretrafficcheck', sk: '2026-01-01T00:00:00.000Z#alt_pretrafficcheck', attempt: 1 };
  return [
    { name: 'an empty batch: every message taken (the bundle loads on the runtime; no call)', event: { Records: [] }, expectPayload: ALL_TAKEN },
    {
      name: `a message for a delivery that does not exist (${CANARY_FACTORY_ID}): looked up (GetItem on the alerts table) and dropped, nothing sent`,
      event: { Records: [{ messageId: 'pre-traffic-check', body: JSON.stringify(message), eventSource: 'aws:sqs' }] },
      expectPayload: ALL_TAKEN,
    },
    {
      name: "one signed delivery to the stack's canary receiver (signing, the address guard, DNS, TLS, the POST): verified and answered 2xx",
      event: CANARY_DELIVERY_EVENT,
      expectStatus: 200,
    },
  ];
}

const SOURCEMAPS_UPLOADS = `${API_PREFIXES.sourcemaps}uploads`;

/** The upload function's pre-traffic probes (docs/deploying.md#the-pre-traffic-check): it loads, routes and reaches the keys table. */
export function sourceMapsProbes(): Probe[] {
  return [
    {
      name: 'no key: 401 (the bundle loads on the runtime, routes and answers; no DynamoDB or S3 call)',
      event: apiGatewayEvent('POST', SOURCEMAPS_UPLOADS, { 'Content-Type': 'application/json' }, '{}'),
      expectStatus: 401,
    },
    {
      name: 'an unknown key: 401 after its lookup (UpdateItem on the keys table; a denied or failed call answers 5xx)',
      event: apiGatewayEvent('POST', SOURCEMAPS_UPLOADS, { Authorization: `Bearer ${UNKNOWN_SECRET_KEY}`, 'Content-Type': 'application/json' }, '{}'),
      expectStatus: 401,
    },
  ];
}
