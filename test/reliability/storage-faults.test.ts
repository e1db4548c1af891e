import { companyId } from '../../lambda/contacts/domain/company-id';
import type { Contact } from '../../lambda/contacts/domain/contact';
import { contactId } from '../../lambda/contacts/domain/contact-id';
import {
  FAULTS,
  LOST_ANSWER_FAULTS,
  startFaultyApi,
  stopFaultServers,
  type DynamoCall,
  type Fault,
  type FaultRule,
  type FaultyApi,
  type LostAnswerFault,
} from '../support/faults';
import type { ContactItem } from '../../lambda/infrastructure/store/contacts/contact-item';
import { COMPANY_SK_PREFIX, CONTACT_SK_PREFIX } from '../../lambda/infrastructure/store/schema';
import type { HttpResponse } from '../support/http';
import { factoryItems } from '../support/items';
import { ConnectionPool } from '../support/connection-pool';
import { bearer, issueKey, newFactoryId, realDependencies, startLocalApi, type LocalApi } from '../support/local-api';
import { SIZES } from './sizes';
import { stored as storedEmail } from '../support/emails';

/**
 * Faults injected into the real DynamoDB client (SDK middleware, around
 * DynamoDB Local) at each call a request makes. Every fault outlasts the
 * SDK's own retries (3 attempts) unless a test says otherwise, so the request
 * itself fails: it must answer 503 `{"error"}` in bounded time (429 with
 * Retry-After when the store refused for load: throttling is asked to slow
 * down, never answered with a 5xx), and sending the same request again must
 * converge on the correct records.
 */

interface UpsertAnswer {
  contact: Contact;
  created: boolean;
}
interface ReadAnswer {
  contact: Contact;
}
/** A company item as the store writes it. */
interface CompanyItem {
  factoryId: string;
  sk: string;
  id: string;
  domain: string;
  name: string;
  createdAt: string;
}

/**
 * 3 attempts × 1 s request timeout + backoff ≈ 3.3 s for a hung call, ≤ 3 s
 * of backoff for throttling; the rest is slack for a busy machine. Under the
 * Lambda's own last-resort 503 at 9.5 s, so this bound shows that the SDK's
 * timers end a hang; API Gateway would give up at 29 s.
 */
const BOUND_MS = 8_000;
/** A clock that stands still, for the tests that count admitted requests. */
const FROZEN = Date.parse('2026-11-25T12:00:00Z');

const EMAIL = 'ada.lovelace@example.com';
const UPSERT_BODY = {
  email: 'Ada.Lovelace@Example.com',
  name: 'Ada Lovelace',
  title: 'Analyst',
  company: 'Acme Corp',
  companyDomain: 'https://www.acme.io/',
};
const DOMAIN = 'acme.io';

type Request = 'upsert' | 'read by a key new to the container' | 'read by a key known to the container';

/** The DynamoDB calls each request makes (a read by a known key makes both at once). */
const CALLS_OF: Record<Request, DynamoCall[]> = {
  upsert: ['authorize', 'contact-upsert', 'company-create'],
  'read by a key new to the container': ['authorize', 'contact-read'],
  'read by a key known to the container': ['authorize', 'contact-read'],
};
const WRITES: readonly DynamoCall[] = ['authorize', 'contact-upsert', 'company-create'];

type Injection = { when: 'before'; fault: Fault } | { when: 'after'; fault: LostAnswerFault };

interface Case {
  name: string;
  request: Request;
  call: DynamoCall;
  injection: Injection;
}

const describeInjection = (i: Injection) => (i.when === 'before' ? `fails with ${i.fault}` : `is applied but its answer is lost (${i.fault})`);

/**
 * Sampled, a read by a key new to the container is left out: its calls run one
 * after the other, like an upsert's, through the same key check and store code.
 */
const REQUESTS: Request[] = SIZES.allFaultRequests
  ? ['upsert', 'read by a key new to the container', 'read by a key known to the container']
  : ['upsert', 'read by a key known to the container'];

/** Faults that are the store refusing for load: answered 429, not 503. */
const THROTTLED: readonly Fault[] = ['throttling', 'provisioned-throughput'];

const CASES: Case[] = REQUESTS.flatMap((request) =>
  CALLS_OF[request].flatMap((call) => {
    const injections: Injection[] = [
      ...FAULTS.map((fault): Injection => ({ when: 'before', fault })),
      ...(WRITES.includes(call) ? LOST_ANSWER_FAULTS.map((fault): Injection => ({ when: 'after', fault })) : []),
    ];
    return injections.map((injection) => ({
      name: `${request}, ${call} ${describeInjection(injection)}: ${THROTTLED.includes(injection.fault) ? 429 : 503}, then the same request converges`,
      request,
      call,
      injection,
    }));
  }),
);

/** Slow cases first, so that the quick ones run while they wait. */
const SLOW: readonly Fault[] = ['hang', 'throttling', 'provisioned-throughput'];
const bySlowness = (a: Case, b: Case) => Number(SLOW.includes(b.injection.fault)) - Number(SLOW.includes(a.injection.fault));

interface Outcome {
  factoryId: string;
  /** The contact as written before a read's fault. */
  existing?: Contact;
  first: HttpResponse;
  elapsedMs: number;
  hits: number;
  contactsAfterFault: ContactItem[];
  companiesAfterFault: CompanyItem[];
  retry: HttpResponse;
  contacts: ContactItem[];
  companies: CompanyItem[];
}

/** Runs at most `concurrency` tasks at a time. */
function limiter(concurrency: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    while (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active += 1;
    try {
      return await task();
    } finally {
      active -= 1;
      waiting.shift()?.();
    }
  };
}

let setupApi: LocalApi;

/** The factory's contact and company items, in one query. */
async function snapshot(factoryId: string): Promise<{ contacts: ContactItem[]; companies: CompanyItem[] }> {
  const items = await factoryItems(factoryId);
  return {
    contacts: items.filter((item) => String(item.sk).startsWith(CONTACT_SK_PREFIX)) as ContactItem[],
    companies: items.filter((item) => String(item.sk).startsWith(COMPANY_SK_PREFIX)) as CompanyItem[],
  };
}

/** One case on an API of its own (its own client, so the SDK's retry budget is the production one). */
async function runCase(c: Case): Promise<Outcome> {
  // A hang needs the production timeouts (the bound is theirs). The other faults are injected, not
  // waited for: 5 s per attempt keeps a busy DynamoDB Local from adding faults of its own.
  const faulty = await startFaultyApi(c.injection.fault === 'hang' ? {} : { config: { requestTimeoutMs: 5000 } });
  try {
    const factoryId = newFactoryId('fault');
    const auth = bearer((await issueKey(factoryId)).key);
    let existing: Contact | undefined;
    if (c.request !== 'upsert') {
      // Written through this container only when the key must be known to it.
      const via = c.request === 'read by a key known to the container' ? faulty.api : setupApi;
      const created = await via.request('POST', '/api/v1/contacts', { headers: auth, body: UPSERT_BODY });
      if (created.status !== 201) throw new Error(`setup upsert answered ${created.status}: ${created.text}`);
      existing = (created.json as UpsertAnswer).contact;
    }
    const send = () =>
      c.request === 'upsert'
        ? faulty.api.request('POST', '/api/v1/contacts', { headers: auth, body: UPSERT_BODY })
        : faulty.api.request('GET', `/api/v1/contacts/${contactId(factoryId, storedEmail(EMAIL))}`, { headers: auth });

    const injected = faulty.faults.inject({ call: c.call, ...c.injection } as FaultRule);
    const started = performance.now();
    const first = await send();
    const elapsedMs = performance.now() - started;
    injected.remove();
    const afterFault = await snapshot(factoryId);
    const retry = await send();
    const final = await snapshot(factoryId);
    return {
      factoryId,
      existing,
      first,
      elapsedMs,
      hits: injected.hits,
      contactsAfterFault: afterFault.contacts,
      companiesAfterFault: afterFault.companies,
      retry,
      ...final,
    };
  } finally {
    await faulty.close();
  }
}

/** A store refusing for load as the API documents it: 429 with a Retry-After of 1 or 2 s, nothing of the failure in it. */
function expectStorage429(res: HttpResponse) {
  expect(res.status).toBe(429);
  expect(['1', '2']).toContain(res.headers['retry-after']);
  expect(res.json).toEqual({ error: expect.stringMatching(/^Too many writes to the same data at once: retry after [12] s \(retrying is safe\)\.$/) });
  expect(res.text).not.toMatch(/Exception|Throughput|Throttling|UpdateItem|GetItem/);
}

/** A storage 503 as the API documents it, with nothing of the failure in it. */
function expectStorage503(res: HttpResponse) {
  expect(res.status).toBe(503);
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json).toEqual({ error: expect.stringMatching(/retry the same request/) });
  expect(res.text).not.toMatch(
    /\bat \S+:\d+|Exception|InternalServerError|ServiceUnavailable|TimeoutError|ECONN|ETIMEDOUT|node-http-handler|UpdateItem|GetItem/,
  );
}

/** What the faulted upsert left behind: the contact exists once its own write was applied. */
function contactWrittenBy(c: Case): boolean {
  return c.call === 'company-create' || (c.call === 'contact-upsert' && c.injection.when === 'after');
}

/** The same upsert, sent again, leaves one correct contact linked to one existing company. */
function expectConvergedUpsert(c: Case, o: Outcome) {
  const wrote = contactWrittenBy(c);
  expect(o.contactsAfterFault).toHaveLength(wrote ? 1 : 0);
  expect(o.companiesAfterFault).toHaveLength(c.call === 'company-create' && c.injection.when === 'after' ? 1 : 0);

  const answer = o.retry.json as UpsertAnswer;
  expect(o.retry.status).toBe(wrote ? 200 : 201);
  expect(answer.created).toBe(!wrote);
  const linked = companyId(o.factoryId, DOMAIN);
  expect(answer.contact).toMatchObject({
    id: contactId(o.factoryId, storedEmail(EMAIL)),
    email: EMAIL,
    name: UPSERT_BODY.name,
    title: UPSERT_BODY.title,
    source: 'api',
    companyId: linked,
  });
  expect(o.contacts).toHaveLength(1);
  const [stored] = o.contacts;
  expect(stored).toMatchObject({ sk: answer.contact.id, companyId: linked, createdAt: answer.contact.createdAt });
  // createdAt is the one of the first write that landed, faulted or not.
  expect(answer.contact.createdAt).toBe(o.contactsAfterFault[0]?.createdAt ?? stored?.createdAt);
  // The link's company exists, once, named by the first request that created it.
  expect(o.companies).toEqual([expect.objectContaining({ id: linked, domain: DOMAIN, name: UPSERT_BODY.company })]);
}

/** A read changes nothing: sent again it answers the contact as written. */
function expectConvergedRead(o: Outcome) {
  expect(o.retry.status).toBe(200);
  expect((o.retry.json as ReadAnswer).contact).toEqual(o.existing);
  expect(o.contacts).toHaveLength(1);
  expect(o.companies).toHaveLength(1);
}

describe('a DynamoDB call that keeps failing answers 503 (429 when throttled) in bounded time, and the same request again converges', () => {
  const outcomes = new Map<string, Promise<Outcome>>();

  beforeAll(async () => {
    setupApi = await startLocalApi(realDependencies());
    // The cases mostly wait (SDK backoff, hung sockets): run them side by side, each on its own API and factory.
    const limit = limiter(16);
    for (const c of [...CASES].sort(bySlowness)) {
      const outcome = limit(() => runCase(c));
      outcome.catch(() => undefined); // reported by the case's own test
      outcomes.set(c.name, outcome);
    }
  });
  afterAll(async () => {
    await Promise.allSettled(outcomes.values());
    await setupApi.close();
  });

  test.each(CASES)('$name', async (c) => {
    const o = await (outcomes.get(c.name) as Promise<Outcome>);
    if (THROTTLED.includes(c.injection.fault)) expectStorage429(o.first);
    else expectStorage503(o.first);
    // The fault outlasted the SDK's three attempts, and the answer came in bounded time.
    expect(o.hits).toBe(3);
    expect(o.elapsedMs).toBeLessThan(BOUND_MS);
    if (c.request === 'upsert') expectConvergedUpsert(c, o);
    else expectConvergedRead(o);
  });
});

describe('a fault that the SDK retry absorbs never reaches the caller', () => {
  let faulty: FaultyApi;
  beforeAll(async () => {
    faulty = await startFaultyApi();
  });
  afterAll(() => faulty.close());

  const tenant = async () => {
    const factoryId = newFactoryId('absorbed');
    const auth = bearer((await issueKey(factoryId)).key);
    return { factoryId, upsert: () => faulty.api.request('POST', '/api/v1/contacts', { headers: auth, body: UPSERT_BODY }) };
  };

  test('an upsert applied but unanswered once: the SDK retry lands on it and still answers 201 created: true', async () => {
    const { factoryId, upsert } = await tenant();
    const lost = faulty.faults.inject({ call: 'contact-upsert', when: 'after', fault: 'timeout', times: 1 });
    const res = await upsert();
    expect(lost.hits).toBe(1);
    expect(res.status).toBe(201);
    expect((res.json as UpsertAnswer).created).toBe(true);
    expect((await snapshot(factoryId)).contacts).toHaveLength(1);
  });

  test('a company create applied but unanswered once: 201, and one company', async () => {
    const { factoryId, upsert } = await tenant();
    const lost = faulty.faults.inject({ call: 'company-create', when: 'after', fault: 'connection-reset', times: 1 });
    const res = await upsert();
    expect(lost.hits).toBe(1);
    expect(res.status).toBe(201);
    expect((await snapshot(factoryId)).companies).toEqual([expect.objectContaining({ id: (res.json as UpsertAnswer).contact.companyId })]);
  });

  test.each([
    ['finds the key idle', []],
    ['finds the key busy', ['warm-up']],
  ])('a key check applied but unanswered once, when it %s, counts the request once', async (_label, warmUp) => {
    // A burst of 4 at one instant (30 per minute, B = 3), on a clock that stands still.
    const clocked = await startFaultyApi({ now: () => FROZEN });
    try {
      const key = bearer((await issueKey(newFactoryId('count-once'), { rateLimit: 30 })).key);
      const read = () => clocked.api.request('GET', '/api/v1/contacts?email=x%40example.com', { headers: key });
      const statuses: number[] = [];
      for (const _ of warmUp) statuses.push((await read()).status);
      const lost = clocked.faults.inject({ call: 'authorize', when: 'after', fault: 'timeout', times: 1 });
      while (statuses.length < 4) statuses.push((await read()).status);
      expect(lost.hits).toBe(1);
      expect(statuses).toEqual([404, 404, 404, 404]);
      expect((await read()).status).toBe(429);
    } finally {
      await clocked.close();
    }
  });

  test('a key check throttled twice: the third attempt passes and the upsert answers 201', async () => {
    const { factoryId, upsert } = await tenant();
    const throttled = faulty.faults.inject({ call: 'authorize', when: 'before', fault: 'provisioned-throughput', times: 2 });
    const res = await upsert();
    expect(throttled.hits).toBe(2);
    expect(res.status).toBe(201);
    expect((await snapshot(factoryId)).contacts).toHaveLength(1);
  });
});

describe(`random faults under load (${SIZES.chaosEmails} emails × ${SIZES.chaosUpsertsPerEmail} upserts)`, () => {
  test(
    'every upsert succeeds once repeated on 503, and each email ends as one record linked to one existing company',
    async () => {
      const faulty = await startFaultyApi();
      const pool = new ConnectionPool(faulty.api.baseUrl, SIZES.connections);
      try {
        const factoryId = newFactoryId('chaos');
        const auth = bearer((await issueKey(factoryId)).key);
        // Each attempt of a write fails now and then, before DynamoDB or with its answer lost
        // (throttling is left out: its backoff would only slow the run; the cases above cover it).
        for (const call of WRITES) {
          for (const fault of ['internal-error', 'timeout', 'connection-reset'] as const) {
            faulty.faults.inject({ call, when: 'before', fault, probability: 0.1 });
            faulty.faults.inject({ call, when: 'after', fault, probability: 0.1 });
          }
        }
        const domains = Math.max(2, Math.floor(SIZES.chaosEmails / 4));
        const bodies = Array.from({ length: SIZES.chaosEmails }, (_, e) =>
          Array.from({ length: SIZES.chaosUpsertsPerEmail }, (_, r) => ({
            email: `person${e}@example.com`,
            name: `name ${e}.${r}`,
            ...(r % 2 ? { title: `title ${e}.${r}` } : { phone: `+1 555 ${e}${r}` }),
            company: `Company ${e % domains}`,
            companyDomain: `domain${e % domains}.example`,
          })),
        ).flat();

        let unavailable = 0;
        const finals = await Promise.all(
          bodies.map(async (body) => {
            for (let attempt = 1; ; attempt += 1) {
              const res = await pool.send({ method: 'POST', path: '/api/v1/contacts', headers: auth, body });
              if (res.status !== 503 || attempt === 50) return { body, res };
              unavailable += 1;
            }
          }),
        );
        faulty.faults.clear();

        expect(finals.map(({ res }) => res.status).filter((status) => status !== 200 && status !== 201)).toEqual([]);
        expect(unavailable).toBeGreaterThan(0); // the faults did reach callers

        const { contacts, companies } = await snapshot(factoryId);
        expect(contacts).toHaveLength(SIZES.chaosEmails);
        for (let e = 0; e < SIZES.chaosEmails; e += 1) {
          const email = `person${e}@example.com`;
          const answers = finals.filter(({ body }) => body.email === email).map(({ res }) => res.json as UpsertAnswer);
          const stored = contacts.find((item) => item.email === email);
          expect(answers.filter((answer) => answer.created).length).toBeLessThanOrEqual(1);
          expect(new Set(answers.map((answer) => answer.contact.createdAt))).toEqual(new Set([stored?.createdAt]));
          expect(stored?.companyId).toBe(companyId(factoryId, `domain${e % domains}.example`));
          const sentNames = bodies.filter((body) => body.email === email).map((body) => body.name);
          expect(sentNames).toContain(stored?.name);
        }
        // Exactly the linked companies exist: none missing, none orphaned.
        expect(new Set(companies.map((company) => company.id))).toEqual(new Set(contacts.map((contact) => contact.companyId)));
        expect(companies).toHaveLength(domains);
      } finally {
        pool.close();
        await faulty.close();
      }
    },
    SIZES.testTimeoutMs,
  );
});

afterAll(stopFaultServers);
