/**
 * The burst of `npm run load -- --burst N`: what a customer's nightly sync
 * written with many threads does to `npm start`. N reads at once, each on
 * its own connection; N upserts at once; then N reads and N upserts
 * pipelined on one connection each (sent in one write, answered in order).
 * Every upsert creates its own contact, so afterwards each one can be
 * looked for in the store: a burst must lose nothing.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { contactId } from '../../lambda/contacts/domain/contact-id';
import { normalizeEmail } from '../../lambda/kernel/email';
import { partitionItems } from '../fuzz/partition';
import { quantile } from './latency';

export interface BurstRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface BurstAnswer {
  status: number;
  /** Retry-After of a 429 or 503, when sent. */
  retryAfter?: string;
  /** Milliseconds from the burst's start to this answer. */
  ms: number;
}

export interface PhaseResult {
  name: string;
  sent: number;
  statuses: Record<string, number>;
  serverErrors: number;
  /** Answers other than the one expected (200 for a read, 201 for an upsert), 5xx included. */
  unexpected: number;
  /** 429 and 503 answers without Retry-After. */
  withoutRetryAfter: number;
  networkErrors: number;
  p50: number;
  p99: number;
  max: number;
}

export interface BurstResult {
  phases: PhaseResult[];
  /** Upserts sent whose contact is not in the store afterwards (or not as sent). */
  missingWrites: string[];
  writes: number;
}

const CONTACTS = '/api/v1/contacts';

/** Sends each request on its own connection, all at once. */
export async function concurrently(baseUrl: string, headers: Record<string, string>, requests: BurstRequest[]): Promise<(BurstAnswer | Error)[]> {
  const started = performance.now();
  return Promise.all(
    requests.map(
      (req) =>
        new Promise<BurstAnswer | Error>((resolve) => {
          const sent: Record<string, string | number> = { ...headers };
          if (req.body !== undefined) {
            sent['Content-Type'] = 'application/json';
            sent['Content-Length'] = Buffer.byteLength(req.body);
          }
          const call = httpRequest(new URL(req.path, baseUrl), { method: req.method, headers: sent, agent: false }, (res) => {
            res.resume();
            res.on('end', () => {
              const retryAfter = res.headers['retry-after'];
              resolve({ status: res.statusCode ?? 0, retryAfter: typeof retryAfter === 'string' ? retryAfter : undefined, ms: performance.now() - started });
            });
          });
          call.setTimeout(60_000, () => call.destroy(new Error('no answer within 60 s')));
          call.on('error', resolve);
          call.end(req.body);
        }),
    ),
  );
}

/** Writes every request on one connection in one go (HTTP/1.1 pipelining) and reads the answers in order. */
export function pipelined(baseUrl: string, headers: Record<string, string>, requests: BurstRequest[]): Promise<(BurstAnswer | Error)[]> {
  const { hostname, port } = new URL(baseUrl);
  const fields = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const wire = requests.map((req) => {
    const body = req.body === undefined ? '' : req.body;
    const type = req.body === undefined ? '' : 'Content-Type: application/json\r\n';
    return `${req.method} ${req.path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\n${fields}${type}Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
  });
  return new Promise((resolve) => {
    const answers: (BurstAnswer | Error)[] = [];
    let pending = Buffer.alloc(0);
    const started = performance.now();
    const socket = connect(Number(port), hostname, () => socket.write(wire.join('')));
    const finish = (error?: Error) => {
      socket.destroy();
      while (answers.length < requests.length) answers.push(error ?? new Error('the connection closed before this answer'));
      resolve(answers);
    };
    socket.setTimeout(60_000, () => finish(new Error('no answer within 60 s')));
    socket.on('error', (error) => finish(error));
    socket.on('close', () => finish());
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end === -1) return;
        const head = pending.subarray(0, end).toString('latin1');
        const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        pending = pending.subarray(end + 4 + length);
        const retryAfter = /\r\nretry-after:\s*([^\r]*)/i.exec(head)?.[1];
        answers.push({ status: Number(head.split(' ')[1]), retryAfter, ms: performance.now() - started });
        if (answers.length === requests.length) return finish();
      }
    });
  });
}

function summarize(name: string, expected: number, answers: (BurstAnswer | Error)[]): PhaseResult {
  const statuses: Record<string, number> = {};
  let networkErrors = 0;
  let withoutRetryAfter = 0;
  const times: number[] = [];
  for (const answer of answers) {
    if (answer instanceof Error) {
      networkErrors += 1;
      statuses['network error'] = (statuses['network error'] ?? 0) + 1;
      continue;
    }
    statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
    times.push(answer.ms);
    if ((answer.status === 429 || answer.status === 503) && !answer.retryAfter) withoutRetryAfter += 1;
  }
  times.sort((a, b) => a - b);
  const serverErrors = Object.entries(statuses)
    .filter(([status]) => status.startsWith('5'))
    .reduce((sum, [, count]) => sum + count, 0);
  return {
    name,
    sent: answers.length,
    statuses,
    serverErrors,
    unexpected: answers.length - (statuses[expected] ?? 0),
    withoutRetryAfter,
    networkErrors,
    p50: quantile(times, 0.5),
    p99: quantile(times, 0.99),
    max: times[times.length - 1] ?? Number.NaN,
  };
}

export interface BurstTarget {
  baseUrl: string;
  /** A secret key of `factoryId` whose limit the burst cannot reach. */
  key: string;
  factoryId: string;
  /** To check afterwards that every upsert is in the store. */
  doc: DynamoDBDocumentClient;
  contactsTable: string;
  onProgress?: (line: string) => void;
}

/**
 * The burst of `size`: reads of contacts seeded first, then upserts each
 * creating a contact, concurrently and pipelined; then every upsert is
 * looked for in the store.
 */
export async function runBurst(target: BurstTarget, size: number): Promise<BurstResult> {
  const say = target.onProgress ?? (() => undefined);
  const headers = { Authorization: `Bearer ${target.key}` };
  const run = `${Date.now().toString(36)}`;
  const upserts = (phase: string): BurstRequest[] =>
    Array.from({ length: size }, (_, i) => ({
      method: 'POST',
      path: CONTACTS,
      body: JSON.stringify({
        email: `burst-${run}-${phase}-${i}@example.com`,
        name: `Burst ${i}`,
        title: phase,
        ...(i % 4 === 0 ? { companyDomain: `burst-${i % 20}.example`, company: 'Burst Co' } : {}),
      }),
    }));

  say('seeding 20 contacts for the reads …');
  const seeds = upserts('seed').slice(0, 20);
  for (const answer of await concurrently(target.baseUrl, headers, seeds)) {
    if (answer instanceof Error || answer.status !== 201) throw new Error(`seeding answered ${answer instanceof Error ? answer.message : answer.status}`);
  }
  const reads: BurstRequest[] = Array.from({ length: size }, (_, i) => {
    const { email } = JSON.parse((seeds[i % seeds.length] as BurstRequest).body as string) as { email: string };
    const check = normalizeEmail(email);
    if (!check.ok) throw new Error(`seeded an address the service refuses: ${email} (${check.problem})`);
    return i % 2
      ? { method: 'GET', path: `${CONTACTS}/${contactId(target.factoryId, check.email)}` }
      : { method: 'GET', path: `${CONTACTS}?email=${encodeURIComponent(email)}` };
  });

  const phases: PhaseResult[] = [];
  const written: BurstRequest[] = [];
  const phase = async (name: string, send: typeof concurrently, requests: BurstRequest[]) => {
    say(`${name}: ${requests.length} requests …`);
    const expected = requests[0]?.method === 'POST' ? 201 : 200;
    const result = summarize(name, expected, await send(target.baseUrl, headers, requests));
    say(
      `  ${Object.entries(result.statuses)
        .map(([status, count]) => `${status}×${count}`)
        .join(' ')}; p50 ${result.p50.toFixed(0)} ms, max ${result.max.toFixed(0)} ms`,
    );
    phases.push(result);
    if (requests[0]?.method === 'POST') written.push(...requests);
  };
  await phase(`${size} concurrent GETs`, concurrently, reads);
  await phase(`${size} concurrent POSTs`, concurrently, upserts('concurrent'));
  await phase(`${size} pipelined GETs, one connection`, pipelined, reads);
  await phase(`${size} pipelined POSTs, one connection`, pipelined, upserts('pipelined'));

  const stored = new Map<string, Record<string, unknown>>();
  for (const item of await partitionItems(target.doc, target.contactsTable, target.factoryId)) stored.set(String(item.email), item);
  const missingWrites = written.flatMap((req) => {
    const sent = JSON.parse(req.body as string) as { email: string; name: string; title: string };
    const item = stored.get(sent.email);
    return item && item.name === sent.name && item.title === sent.title ? [] : [sent.email];
  });
  return { phases, missingWrites, writes: written.length };
}

/** The result as a table, with a last line saying whether it passed. */
export function burstReport(result: BurstResult): string {
  const ms = (value: number) => (Number.isNaN(value) ? '-' : value.toFixed(0));
  const lines = [
    `${'phase'.padEnd(36)}${'sent'.padStart(6)}${'5xx'.padStart(6)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'max ms'.padStart(9)}  statuses`,
    ...result.phases.map(
      (p) =>
        `${p.name.padEnd(36)}${String(p.sent).padStart(6)}${String(p.serverErrors).padStart(6)}${ms(p.p50).padStart(9)}${ms(p.p99).padStart(9)}${ms(p.max).padStart(9)}  ${Object.entries(
          p.statuses,
        )
          .map(([status, count]) => `${status}×${count}`)
          .join(' ')}${p.withoutRetryAfter > 0 ? `  (${p.withoutRetryAfter} 429/503 without Retry-After)` : ''}`,
    ),
    `writes: ${result.writes} upserts sent, ${result.writes - result.missingWrites.length} found in the store as sent${result.missingWrites.length > 0 ? `; missing: ${result.missingWrites.slice(0, 5).join(', ')}${result.missingWrites.length > 5 ? ' …' : ''}` : ''}`,
  ];
  return lines.join('\n');
}

/** Passed: every answer the expected one (so no 5xx, no network error), every upsert in the store. */
export function burstPassed(result: BurstResult): boolean {
  return result.missingWrites.length === 0 && result.phases.every((p) => p.unexpected === 0);
}
