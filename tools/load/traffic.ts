/**
 * The mixed traffic of `npm run load`: what a customer's backend sends
 * (creates and updates, with and without a company domain, reads by id and
 * by email, misses) plus callers' mistakes, each with the status it must get.
 */
import { randomBytes } from 'node:crypto';

export const KINDS = ['create', 'create+company', 'update', 'update+company', 'get by id', 'get by email', 'get 404', 'get by email 404', 'bad input'] as const;
export type Kind = (typeof KINDS)[number];

/** Share of each kind, out of 100. */
const WEIGHTS: Record<Kind, number> = {
  create: 12,
  'create+company': 8,
  update: 14,
  'update+company': 6,
  'get by id': 22,
  'get by email': 18,
  'get 404': 6,
  'get by email 404': 6,
  'bad input': 8,
};

export interface LoadRequest {
  kind: Kind;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  /** Statuses docs/contacts-api.md gives this request. */
  expect: number[];
  /** A create: once answered, its contact joins the pool that updates and reads draw from. */
  creates?: string;
}

const DOMAINS = Array.from({ length: 25 }, (_, i) => `company-${i}.example`);
const BAD: { path: string; method: 'GET' | 'POST'; body?: string; expect: number[] }[] = [
  { method: 'POST', path: '/api/v1/contacts', body: '{"email": "not-an-address"}', expect: [422] },
  { method: 'POST', path: '/api/v1/contacts', body: '{"email": "ada@example.com", "source": "fax"}', expect: [422] },
  { method: 'POST', path: '/api/v1/contacts', body: '{"email": "ada@example.com",', expect: [400] },
  { method: 'GET', path: '/api/v1/contacts', expect: [400] },
];

/** Builds requests in a fixed mix, round-robin over a shuffled deck so any window of 100 holds the mix. */
export class Traffic {
  private readonly run = randomBytes(4).toString('hex');
  private readonly deck: Kind[];
  private readonly known: { email: string; id: string }[] = [];
  private next = 0;
  private created = 0;

  constructor() {
    this.deck = KINDS.flatMap((kind) => Array<Kind>(WEIGHTS[kind]).fill(kind));
    for (let i = this.deck.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [this.deck[i], this.deck[j]] = [this.deck[j] as Kind, this.deck[i] as Kind];
    }
  }

  /** Contacts known to exist (their create was answered). */
  get pool(): number {
    return this.known.length;
  }

  remember(email: string, id: string): void {
    this.known.push({ email, id });
  }

  private pick() {
    return this.known[Math.floor(Math.random() * this.known.length)] as { email: string; id: string };
  }

  /** A create, whatever the deck says: for seeding. */
  create(withCompany = false): LoadRequest {
    const email = `load-${this.run}-${this.created++}@example.com`;
    const company = withCompany ? { companyDomain: DOMAINS[this.created % DOMAINS.length], company: 'Load Co' } : {};
    return {
      kind: withCompany ? 'create+company' : 'create',
      method: 'POST',
      path: '/api/v1/contacts',
      body: JSON.stringify({ email, name: 'Load Test', title: 'Tester', source: 'api', ...company }),
      expect: [201],
      creates: email,
    };
  }

  nextRequest(): LoadRequest {
    let kind = this.deck[this.next++ % this.deck.length] as Kind;
    if (this.known.length === 0 && !kind.startsWith('create') && !kind.endsWith('404') && kind !== 'bad input') kind = 'create';
    switch (kind) {
      case 'create':
      case 'create+company':
        return this.create(kind === 'create+company');
      case 'update':
      case 'update+company': {
        const { email } = this.pick();
        const company = kind === 'update+company' ? { companyDomain: `https://www.${DOMAINS[Math.floor(Math.random() * DOMAINS.length)]}/` } : {};
        // The same person in another case: one contact (docs/contacts-api.md#email-addresses), so 200.
        const body = { email: email.toUpperCase(), title: `Title ${Math.random().toString(36).slice(2, 8)}`, ...company };
        return { kind, method: 'POST', path: '/api/v1/contacts', body: JSON.stringify(body), expect: [200] };
      }
      case 'get by id':
        return { kind, method: 'GET', path: `/api/v1/contacts/${this.pick().id}`, expect: [200] };
      case 'get by email':
        return { kind, method: 'GET', path: `/api/v1/contacts?email=${encodeURIComponent(this.pick().email)}`, expect: [200] };
      case 'get 404':
        return { kind, method: 'GET', path: `/api/v1/contacts/ct_${randomBytes(8).toString('hex')}`, expect: [404] };
      case 'get by email 404':
        return { kind, method: 'GET', path: `/api/v1/contacts?email=nobody-${randomBytes(6).toString('hex')}%40example.com`, expect: [404] };
      case 'bad input':
        return { kind, ...(BAD[this.next % BAD.length] as (typeof BAD)[number]) };
    }
  }
}
