import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { randomBytes } from 'node:crypto';
import { createContactsHandler } from '../../lambda/contacts/api/routes';
import { createIngestHandler } from '../../lambda/ingest/api/routes';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { generateKey } from '../../lambda/kernel/api-key';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { ratePolicy } from '../../lambda/ingest/limits';
import { hostHandler } from '../../local/harness/host';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import type { TableNames } from '../../lambda/infrastructure/store/schema';
import { apiRequest } from './request';
import { invoke } from './transport';

/**
 * The clock the fuzzed handler reads for rate-limit windows: frozen, so a key
 * over its limit stays over for the whole run, and the busy key's counter
 * stays inside one window.
 */
export const FROZEN_NOW = Date.UTC(2031, 0, 1, 12, 0, 30);

/** A factory, its key and the contacts it holds before the fuzz starts. */
export interface Tenant {
  factoryId: string;
  key: string;
  contacts: { id: string; email: string }[];
}

/** What generated requests draw from, and what the oracle knows of the store. */
export interface FuzzWorld {
  /** The caller: a request that passes the key check acts for this factory. */
  own: Tenant;
  /** Another factory: its key is never sent, its ids and emails are, and must never reach its data. */
  other: Tenant;
  /** A secret key over its per-minute limit. */
  throttledKey: string;
  /** Keys that never work on the contacts API: revoked, publishable (it works on the ingest API), never issued. */
  revokedKey: string;
  publishableKey: string;
  unknownKey: string;
  /** The ingest API's caller: publishable keys of the own factory, bound to ORIGINS. */
  ingest: {
    /** Active, far from any limit. */
    key: string;
    /** Active, over its per-minute limit for the whole (frozen) run. */
    throttledKey: string;
    /** As issued: what the oracle matches an Origin header against. */
    origins: readonly string[];
  };
}

/** The origins of the world's publishable keys: one exact, one wildcard. */
export const INGEST_ORIGINS = ['https://www.example.com', 'https://*.shop.example'] as const;

/** Stored (lowercase) emails. `shared@…` exists in both factories. */
const OWN_EMAILS = ['ada@example.com', 'grace.hopper+crm@example.org', 'søren@example.dk', 'shared@both.example'];
const OTHER_EMAILS = ['shared@both.example', 'alan@turing.example', 'other+only@example.net'];

/** Every secret of the world: none may ever show in an error body or a log line. */
export function worldSecrets(world: FuzzWorld): string[] {
  return [
    world.own.key,
    world.other.key,
    world.throttledKey,
    world.revokedKey,
    world.publishableKey,
    world.unknownKey,
    world.ingest.key,
    world.ingest.throttledKey,
  ];
}

/** The contacts API wired as the Lambda wires it, on the given tables, with the frozen clock. */
export function fuzzHandler(doc: DynamoDBDocumentClient, tables: TableNames): ApiHandler {
  return createContactsHandler({ ...dynamoDependencies(doc, tables), now: () => FROZEN_NOW });
}

/**
 * Both APIs of the host, as `npm start` serves them (/ingest/v1/* to the
 * ingest API), with the frozen clock. Every fuzzed request comes from one
 * address, so the per-address limits are raised out of reach: only the
 * throttled key's limit is ever hit, and the oracle knows which key that is.
 */
export function fuzzHostHandler(doc: DynamoDBDocumentClient, tables: TableNames): ApiHandler {
  const wide = ratePolicy(1_000_000_000, 60_000);
  const ingest = createIngestHandler({
    ...ingestDynamoDependencies(doc, tables, { addressLimits: { requests: wide, featureRequests: wide } }),
    now: () => FROZEN_NOW,
  });
  return hostHandler({ contacts: fuzzHandler(doc, tables), ingest });
}

async function seed(handler: ApiHandler, factoryId: string, key: string, emails: string[], companyName: string): Promise<Tenant> {
  const contacts = [];
  for (const email of emails) {
    const body = { email, name: `${companyName} person`, companyDomain: 'acme.io', company: companyName };
    const res = await invoke(handler, apiRequest('POST', '/api/v1/contacts', key, body));
    if (res.status !== 201) throw new Error(`seeding ${email} for ${factoryId} answered ${res.status}: ${res.body}`);
    const { contact } = JSON.parse(res.body) as { contact: { id: string; email: string } };
    contacts.push({ id: contact.id, email: contact.email });
  }
  return { factoryId, key, contacts };
}

/**
 * Fresh factories and keys for one run: the caller with a few contacts,
 * another factory with some of the same emails, and keys in every state.
 */
export async function createWorld(handler: ApiHandler, doc: DynamoDBDocumentClient, tables: TableNames): Promise<FuzzWorld> {
  const admin = new KeyAdmin(doc, tables.keys);
  const run = randomBytes(5).toString('hex');
  const ownFactory = `fac_fuzz_${run}`;
  const otherFactory = `fac_fuzz_other_${run}`;
  // The busy key's counter grows all run long in the frozen window: no limit it could reach.
  const ownKey = (await admin.create({ factoryId: ownFactory, type: 'secret', rateLimit: 1_000_000_000 })).key;
  const otherKey = (await admin.create({ factoryId: otherFactory, type: 'secret', rateLimit: 1_000_000_000 })).key;
  const throttled = await admin.create({ factoryId: ownFactory, type: 'secret', rateLimit: 1 });
  const revoked = await admin.create({ factoryId: ownFactory, type: 'secret' });
  await admin.revoke(revoked.keyId);
  // Refused by the contacts API, and a working key of the ingest API (as the ingest key below).
  const publishable = await admin.create({ factoryId: ownFactory, type: 'publishable', origins: [...INGEST_ORIGINS], rateLimit: 1_000_000_000 });
  const ingestKey = (await admin.create({ factoryId: ownFactory, type: 'publishable', origins: [...INGEST_ORIGINS], rateLimit: 1_000_000_000 })).key;
  const ingestThrottled = (await admin.create({ factoryId: ownFactory, type: 'publishable', origins: [...INGEST_ORIGINS], rateLimit: 1 })).key;

  const own = await seed(handler, ownFactory, ownKey, OWN_EMAILS, 'Own Co');
  const other = await seed(handler, otherFactory, otherKey, OTHER_EMAILS, 'Other Co');
  // Spend the throttled key's one request of the (frozen) minute.
  const spent = await invoke(handler, apiRequest('GET', '/api/v1/contacts/ct_0000000000000000', throttled.key));
  if (spent.status !== 404) throw new Error(`spending the throttled key answered ${spent.status}: ${spent.body}`);
  // And the throttled publishable key's: from then on every request with it is over its limit.
  const beacon = await invoke(handler, {
    method: 'POST',
    target: `/ingest/v1/events?key=${ingestThrottled}`,
    headers: [
      ['Origin', 'https://www.example.com'],
      ['Content-Type', 'text/plain'],
    ],
    body: Buffer.from(JSON.stringify({ events: [{ eventId: '00000000-0000-4000-8000-000000000000', message: 'spend' }] })),
  });
  if (beacon.status !== 202) throw new Error(`spending the throttled publishable key answered ${beacon.status}: ${beacon.body}`);
  return {
    own,
    other,
    throttledKey: throttled.key,
    revokedKey: revoked.key,
    publishableKey: publishable.key,
    unknownKey: generateKey('secret').secret,
    ingest: { key: ingestKey, throttledKey: ingestThrottled, origins: INGEST_ORIGINS },
  };
}
