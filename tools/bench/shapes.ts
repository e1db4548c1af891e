import { randomBytes } from 'node:crypto';
import type { BenchRequest, Container } from './container';
import { benchFactoryId, type BenchStore } from './store';

/**
 * The request shapes the benchmark measures. Each shape prepares what its
 * request needs (a fresh factory and key, contacts, a warm or cold key) and
 * returns the one request that is measured; only that request's DynamoDB
 * calls are counted.
 *
 * "Container" is one handler instance with its own key cache, as a Lambda
 * container is. A key is *cold* in the measured container until it served a
 * request there with that key, *warm* after. Contacts a cold shape needs are
 * written through a second container with a second key of the same factory,
 * so the measured key stays untouched.
 */

export interface ShapeWorld {
  store: BenchStore;
  /** The container under measurement (recording, delay injected). */
  measured: Container;
  /** Another container of the same function (no recording, no delay). */
  other: Container;
}

/** The worst counts seen over a shape's samples. */
export interface Counts {
  calls: number;
  /** Calls on the keys table: the key check and rate limit. */
  keyCalls: number;
  rounds: number;
}

/** A target of the issue a shape's counts are held to. */
export interface Target {
  text: string;
  met(counts: Counts): boolean;
  /** The measured value the target is about, for the summary. */
  measured(counts: Counts): string;
}

export interface Shape {
  id: string;
  label: string;
  group: 'refused before auth' | 'error paths' | 'upsert' | 'read';
  /** The status the measured request must get; a sample with another status is discarded. */
  status: number;
  key: 'cold' | 'warm' | '—';
  targets: Target[];
  /** Which measured CPU cost stands for this shape in the cost table. */
  like: 'upsert' | 'get';
  prepare(world: ShapeWorld): Promise<BenchRequest>;
}

const CONTACTS = '/api/v1/contacts';
const auth = (key: string) => ({ Authorization: `Bearer ${key}` });
const json = (body: Record<string, unknown>) => JSON.stringify(body);
const unique = () => randomBytes(4).toString('hex');

interface Tenant {
  factoryId: string;
  /** The key the measured request uses. */
  key: string;
  keyId: string;
  /** A second key of the same factory, for writing through the other container. */
  seedKey: string;
}

async function newTenant(world: ShapeWorld, rateLimit?: number): Promise<Tenant> {
  const factoryId = benchFactoryId('shape');
  const [main, seed] = await Promise.all([
    world.store.keys.create({ factoryId, type: 'secret', rateLimit }),
    world.store.keys.create({ factoryId, type: 'secret' }),
  ]);
  return { factoryId, key: main.key, keyId: main.keyId, seedKey: seed.key };
}

/** A contact body; `ada.<random>@example.com` unless an email is given. */
function contactBody(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    email: `ada.${unique()}@example.com`,
    name: 'Ada Lovelace',
    title: 'Analyst',
    phone: '+44 20 7946 0000',
    source: 'api',
    ...extra,
  };
}

async function expectStatus(reply: Promise<{ status: number; body: string }>, status: number[], what: string) {
  const answer = await reply;
  if (!status.includes(answer.status)) throw new Error(`${what}: expected ${status.join('/')}, got ${answer.status} ${answer.body}`);
  return answer;
}

const post = (key: string, body: Record<string, unknown>, headers: Record<string, string> = {}): BenchRequest => ({
  method: 'POST',
  path: CONTACTS,
  headers: { ...auth(key), 'Content-Type': 'application/json', ...headers },
  body: json(body),
});
const get = (key: string | undefined, path: string, headers: Record<string, string> = {}): BenchRequest => ({
  method: 'GET',
  path,
  headers: { ...(key === undefined ? {} : auth(key)), ...headers },
});

/** Writes a contact through a container (the other one unless told); returns its id. */
async function seedContact(container: Container, key: string, body: Record<string, unknown>): Promise<string> {
  const reply = await expectStatus(container.send(post(key, body)), [200, 201], 'seeding a contact');
  return (JSON.parse(reply.body) as { contact: { id: string } }).contact.id;
}

/** A request with the tenant's key through the measured container: the key is warm after it. */
async function warm(world: ShapeWorld, tenant: Tenant): Promise<void> {
  await expectStatus(world.measured.send(get(tenant.key, `${CONTACTS}/ct_0000000000000000`)), [404], 'warming the key');
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export const AUTH_ONE_CALL: Target = {
  text: 'auth + rate limit: 1 DynamoDB call per request',
  met: (c) => c.keyCalls === 1,
  measured: (c) => plural(c.keyCalls, 'key call'),
};
export const NO_CALL: Target = {
  text: 'refused before auth: no DynamoDB call',
  met: (c) => c.calls === 0,
  measured: (c) => plural(c.calls, 'call'),
};
export const UPSERT_TWO_ROUNDS: Target = {
  text: 'upsert without company: 2 sequential rounds',
  met: (c) => c.rounds <= 2,
  measured: (c) => plural(c.rounds, 'round'),
};
export const COMPANY_THREE_CALLS: Target = {
  text: 'upsert with a companyDomain: at most 3 calls',
  met: (c) => c.calls <= 3,
  measured: (c) => plural(c.calls, 'call'),
};
export const KNOWN_COMPANY_TWO_ROUNDS: Target = {
  text: 'warm upsert naming a company this container has seen written: 2 sequential rounds',
  met: (c) => c.rounds <= 2,
  measured: (c) => plural(c.rounds, 'round'),
};
export const WARM_GET: Target = {
  text: 'warm GET by id or email: 1 sequential round (2 calls in parallel)',
  met: (c) => c.calls <= 2 && c.rounds === 1,
  measured: (c) => `${plural(c.calls, 'call')}, ${plural(c.rounds, 'round')}`,
};

export const SHAPES: Shape[] = [
  // Refused before the key is looked at: no DynamoDB call.
  {
    id: 'origin',
    label: 'Origin header (valid key)',
    group: 'refused before auth',
    status: 403,
    key: '—',
    like: 'get',
    targets: [NO_CALL],
    prepare: async (world) => post((await newTenant(world)).key, contactBody(), { Origin: 'https://example.com' }),
  },
  {
    id: 'no-key',
    label: 'no key',
    group: 'refused before auth',
    status: 401,
    key: '—',
    like: 'get',
    targets: [NO_CALL],
    prepare: async () => get(undefined, `${CONTACTS}/ct_0000000000000000`),
  },
  {
    id: 'malformed-key',
    label: 'malformed key',
    group: 'refused before auth',
    status: 401,
    key: '—',
    like: 'get',
    targets: [NO_CALL],
    prepare: async () => get('dfsk_short!', `${CONTACTS}/ct_0000000000000000`),
  },
  {
    id: 'publishable-key',
    label: 'publishable key (dfpk_)',
    group: 'refused before auth',
    status: 401,
    key: '—',
    like: 'get',
    targets: [NO_CALL],
    prepare: async () => get(`dfpk_${randomBytes(32).toString('base64url')}`, `${CONTACTS}/ct_0000000000000000`),
  },

  // Error paths that reach storage.
  {
    id: 'unknown-key',
    label: '401 unknown key',
    group: 'error paths',
    status: 401,
    key: 'cold',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async () => get(`dfsk_${randomBytes(32).toString('base64url')}`, `${CONTACTS}/ct_0000000000000000`),
  },
  {
    id: 'revoked-key',
    label: '401 revoked key',
    group: 'error paths',
    status: 401,
    key: 'cold',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await world.store.keys.revoke(tenant.keyId);
      return get(tenant.key, `${CONTACTS}/ct_0000000000000000`);
    },
  },
  {
    id: 'revoked-key-warm-get',
    label: '401 key revoked after use, GET',
    group: 'error paths',
    status: 401,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      await world.store.keys.revoke(tenant.keyId);
      return get(tenant.key, `${CONTACTS}/ct_0000000000000000`);
    },
  },
  {
    id: '429-post',
    label: '429 over the limit, POST',
    group: 'error paths',
    status: 429,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world, 1);
      await warm(world, tenant); // uses the one request the minute allows
      return post(tenant.key, contactBody());
    },
  },
  {
    id: '429-get',
    label: '429 over the limit, GET',
    group: 'error paths',
    status: 429,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world, 1);
      await warm(world, tenant);
      return get(tenant.key, `${CONTACTS}/ct_0000000000000000`);
    },
  },
  {
    id: 'get-404',
    label: '404 no such contact (GET by id)',
    group: 'error paths',
    status: 404,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL, WARM_GET],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      return get(tenant.key, `${CONTACTS}/ct_${randomBytes(8).toString('hex')}`);
    },
  },
  {
    id: 'get-404-cold',
    label: '404 no such contact, cold key',
    group: 'error paths',
    status: 404,
    key: 'cold',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => get((await newTenant(world)).key, `${CONTACTS}/ct_${randomBytes(8).toString('hex')}`),
  },
  {
    id: 'get-404-bad-id',
    label: '404 id that cannot exist',
    group: 'error paths',
    status: 404,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      return get(tenant.key, `${CONTACTS}/not-a-contact-id`);
    },
  },
  {
    id: 'upsert-422',
    label: '422 invalid body',
    group: 'error paths',
    status: 422,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      return post(tenant.key, { email: 'not-an-address', source: 'fax' });
    },
  },

  // Upserts.
  {
    id: 'upsert-create-cold',
    label: 'create, cold key',
    group: 'upsert',
    status: 201,
    key: 'cold',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, UPSERT_TWO_ROUNDS],
    prepare: async (world) => post((await newTenant(world)).key, contactBody()),
  },
  {
    id: 'upsert-create-key-busy-elsewhere',
    label: 'create, key made busy by another container (a stale guess of the limiter state)',
    group: 'upsert',
    status: 201,
    key: 'cold',
    like: 'upsert',
    // The documented exception: this container guesses the key idle, another has just made it busy.
    targets: [],
    prepare: async (world) => {
      // 10 per minute: one request puts the key's TAT 6 s ahead, and the burst of 1 still admits the next.
      const tenant = await newTenant(world, 10);
      await seedContact(world.other, tenant.key, contactBody());
      return post(tenant.key, contactBody());
    },
  },
  {
    id: 'upsert-create',
    label: 'create',
    group: 'upsert',
    status: 201,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, UPSERT_TWO_ROUNDS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      return post(tenant.key, contactBody());
    },
  },
  {
    id: 'upsert-update',
    label: 'update',
    group: 'upsert',
    status: 200,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, UPSERT_TWO_ROUNDS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const body = contactBody();
      await seedContact(world.measured, tenant.key, body);
      return post(tenant.key, { ...body, title: 'Chief Analyst' });
    },
  },
  {
    id: 'upsert-new-domain',
    label: 'create with a new companyDomain',
    group: 'upsert',
    status: 201,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, COMPANY_THREE_CALLS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      await warm(world, tenant);
      return post(tenant.key, contactBody({ company: 'Acme', companyDomain: `acme-${unique()}.io` }));
    },
  },
  {
    id: 'upsert-domain-elsewhere',
    label: 'create with a companyDomain another container created',
    group: 'upsert',
    status: 201,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, COMPANY_THREE_CALLS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const domain = `acme-${unique()}.io`;
      await seedContact(world.other, tenant.seedKey, contactBody({ company: 'Acme', companyDomain: domain }));
      await warm(world, tenant);
      return post(tenant.key, contactBody({ company: 'Acme', companyDomain: domain }));
    },
  },
  {
    id: 'upsert-same-domain',
    label: 'create with a companyDomain this container has seen written',
    group: 'upsert',
    status: 201,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, KNOWN_COMPANY_TWO_ROUNDS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const domain = `acme-${unique()}.io`;
      await seedContact(world.measured, tenant.key, contactBody({ company: 'Acme', companyDomain: domain }));
      return post(tenant.key, contactBody({ company: 'Acme', companyDomain: domain }));
    },
  },
  {
    id: 'upsert-linked-elsewhere',
    label: 'update naming another domain than its link',
    group: 'upsert',
    status: 200,
    key: 'warm',
    like: 'upsert',
    targets: [AUTH_ONE_CALL, COMPANY_THREE_CALLS],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const body = contactBody({ company: 'Acme', companyDomain: `acme-${unique()}.io` });
      await seedContact(world.measured, tenant.key, body);
      return post(tenant.key, { ...body, companyDomain: `globex-${unique()}.io` });
    },
  },

  // Reads.
  {
    id: 'get-id-cold',
    label: 'GET by id, cold key',
    group: 'read',
    status: 200,
    key: 'cold',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const id = await seedContact(world.other, tenant.seedKey, contactBody());
      return get(tenant.key, `${CONTACTS}/${id}`);
    },
  },
  {
    id: 'get-id',
    label: 'GET by id',
    group: 'read',
    status: 200,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL, WARM_GET],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const id = await seedContact(world.measured, tenant.key, contactBody());
      return get(tenant.key, `${CONTACTS}/${id}`);
    },
  },
  {
    id: 'get-email-cold',
    label: 'GET by email, cold key',
    group: 'read',
    status: 200,
    key: 'cold',
    like: 'get',
    targets: [AUTH_ONE_CALL],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const body = contactBody();
      await seedContact(world.other, tenant.seedKey, body);
      return get(tenant.key, `${CONTACTS}?email=${encodeURIComponent(String(body.email))}`);
    },
  },
  {
    id: 'get-email',
    label: 'GET by email',
    group: 'read',
    status: 200,
    key: 'warm',
    like: 'get',
    targets: [AUTH_ONE_CALL, WARM_GET],
    prepare: async (world) => {
      const tenant = await newTenant(world);
      const body = contactBody();
      await seedContact(world.measured, tenant.key, body);
      return get(tenant.key, `${CONTACTS}?email=${encodeURIComponent(String(body.email))}`);
    },
  },
];
