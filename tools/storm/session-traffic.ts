import { randomUUID } from 'node:crypto';

/**
 * A session storm's traffic (docs/capacity.md#the-session-storm), as Sentry's SDKs send it, and what the counters
 * must come to: browser pages, each a session of its own with a user, whose updates (`session` items, one envelope
 * each, as @sentry/browser sends them) start it, may record an error, and end it exited, crashed or abnormal (or
 * leave it open); some updates sent twice (a retry after a lost answer); and servers' minute aggregates
 * (`sessions` items) beside them. All of one release, all in one hour. Shared by `npm run bench:storm --
 * --sessions` and its small version in npm test (test/reliability/session-storm.test.ts).
 */

export type Status = 'started' | 'errored' | 'crashed' | 'abnormal' | 'exited';
export const STATUSES: readonly Status[] = ['started', 'errored', 'crashed', 'abnormal', 'exited'];
export type Counters = Record<Status, number>;
export const zero = (): Counters => ({ started: 0, errored: 0, crashed: 0, abnormal: 0, exited: 0 });

/** One request of the storm: a page's session update, or a server's aggregate row, from its sender's address. */
export interface StormRequest {
  /** The sender (an address per page; servers have their own). */
  sender: number;
  kind: 'update' | 'aggregate';
  /** The envelope's one item: its type and payload. */
  item: [string, Record<string, unknown>];
  /** The statuses it reaches, each under its session (`<sid> <status>`): an update's; none for an aggregate. */
  reaches: string[];
  /** An aggregate's counts by status. */
  adds?: Counters;
  /** The user it names (an aggregate row names none). */
  user?: string;
}

export interface TrafficSettings {
  /** Pages (browser sessions). */
  pages: number;
  /** Distinct users the pages' sessions belong to. */
  users: number;
  /** One aggregate request per this many pages. */
  pagesPerAggregate: number;
  release: string;
  /** The hour's start, epoch ms: every session starts in it. */
  hourMs: number;
  /** 0 ≤ x < 1, deterministic per draw: which page ends how, which update is sent twice. */
  random: () => number;
}

/** A small deterministic generator (mulberry32), so that a run's traffic can be repeated from its seed. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * The storm's requests, each page's in its order (a page's next update follows its previous one's answer, as an SDK
 * sends them); `pages[i]` lists page i's requests, `servers` the aggregate requests.
 */
export function stormTraffic(settings: TrafficSettings): { pages: StormRequest[][]; servers: StormRequest[] } {
  const { random, release } = settings;
  const attrs = { release, environment: 'production' };
  const started = new Date(settings.hourMs + 60_000).toISOString();
  const pages = Array.from({ length: settings.pages }, (_, page): StormRequest[] => {
    const sid = randomUUID();
    const did = `user-${page % settings.users}`;
    const update = (fields: { init?: boolean; status: string; errors: number }, reaches: Status[]): StormRequest => ({
      sender: page,
      kind: 'update',
      item: ['session', { sid, did, init: fields.init ?? false, started, timestamp: started, status: fields.status, errors: fields.errors, attrs }],
      reaches: reaches.map((status) => `${sid} ${status}`),
      user: did,
    });
    const updates = [update({ init: true, status: 'ok', errors: 0 }, ['started'])];
    const errored = random() < 0.2;
    if (errored) updates.push(update({ status: 'ok', errors: 1 }, ['errored']));
    const end = random();
    const errors = errored ? 1 : 0;
    if (end < 0.1) updates.push(update({ status: 'crashed', errors: 1 }, ['errored', 'crashed']));
    else if (end < 0.15) updates.push(update({ status: 'abnormal', errors }, errors > 0 ? ['errored', 'abnormal'] : ['abnormal']));
    else if (end < 0.9) updates.push(update({ status: 'exited', errors }, errors > 0 ? ['errored', 'exited'] : ['exited']));
    // The rest stay open (a tab left open past the storm): started only.
    return updates.flatMap((request) => (random() < 0.1 ? [request, request] : [request]));
  });
  const servers = Array.from({ length: Math.floor(settings.pages / settings.pagesPerAggregate) }, (_, i): StormRequest => {
    const row = { exited: 1 + Math.floor(random() * 8), errored: Math.floor(random() * 2), crashed: Math.floor(random() * 2), abnormal: 0 };
    const adds = {
      started: row.exited + row.errored + row.crashed + row.abnormal,
      errored: row.errored + row.crashed,
      crashed: row.crashed,
      abnormal: 0,
      exited: row.exited,
    };
    return {
      sender: settings.pages + (i % 4),
      kind: 'aggregate',
      item: ['sessions', { aggregates: [{ started: new Date(settings.hourMs).toISOString(), ...row }], attrs }],
      reaches: [],
      adds,
    };
  });
  return { pages, servers };
}

/** A Sentry envelope of one item. */
export const envelopeOf = ([type, payload]: [string, unknown]): string =>
  `${JSON.stringify({ sent_at: new Date().toISOString() })}\n${JSON.stringify({ type })}\n${JSON.stringify(payload)}\n`;

/** What the counters must come to: at least what was acknowledged reached (nothing lost), at most what was sent (nothing twice). */
export interface Expected {
  acknowledged: Counters;
  sent: Counters;
  /** Distinct users of the acknowledged updates. */
  users: number;
}

/** The counters the requests make: each status of a session once, however often reached; each aggregate's counts once per request. */
export function countersOf(requests: readonly StormRequest[]): Counters {
  const counters = zero();
  const reached = new Set<string>();
  for (const request of requests) {
    for (const key of request.reaches) {
      if (reached.has(key)) continue;
      reached.add(key);
      counters[key.slice(key.indexOf(' ') + 1) as Status] += 1;
    }
    if (request.adds) for (const status of STATUSES) counters[status] += request.adds[status];
  }
  return counters;
}

export function expectedOf(sent: readonly StormRequest[], acknowledged: readonly StormRequest[]): Expected {
  return {
    acknowledged: countersOf(acknowledged),
    sent: countersOf(sent),
    users: new Set(acknowledged.flatMap((request) => (request.user ? [request.user] : []))).size,
  };
}

/** The storm's verdict: statuses lost after acknowledgement (counted below what was acknowledged), or counted past what was sent. */
export function judgeCounters(counted: Counters, expected: Expected): { lost: number; extra: number; exact: boolean } {
  let lost = 0;
  let extra = 0;
  for (const status of STATUSES) {
    lost += Math.max(0, expected.acknowledged[status] - counted[status]);
    extra += Math.max(0, counted[status] - expected.sent[status]);
  }
  const exact = STATUSES.every((status) => counted[status] === expected.acknowledged[status] && counted[status] === expected.sent[status]);
  return { lost, extra, exact };
}
