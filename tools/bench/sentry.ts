/**
 * npm run bench:sentry: the CPU the ingest function spends turning one
 * request into events ready to store, for a Sentry SDK's request against the
 * own SDK's (docs/sentry-sdks.md). Own: the JSON body parsed, the event read
 * (payloads.ts: cleaning, scrubbing) and grouped. Sentry: the body decoded
 * (gzip where the SDK compresses), the envelope framed, the event mapped,
 * read the same way, its frames cleaned and scrubbed, and grouped. What
 * follows is the same code for both (storeEvents: the per-issue and key
 * limits, one conditional PutItem per event), so the store's cost per event
 * is the own path's (bench/ingest-results.md). No DynamoDB, no HTTP: one
 * process, timed request by request after a warm-up; writes
 * bench/sentry-results.md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { groupEvent } from '../../lambda/ingest/grouping/fingerprint';
import { readEvent } from '../../lambda/ingest/payloads';
import { decodeBody } from '../../lambda/ingest/sentry/body-decoding';
import { readSentryEvent } from '../../lambda/ingest/sentry/sentry-event';
import { readEnvelopeRequest, readStoreRequest, type SentryRequest } from '../../lambda/ingest/sentry/sentry-request';
import { SENTRY_LIMITS } from '../../lambda/ingest/limits';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { runWithoutOptions } from '../../local/harness/cli';
import { cpuTimed } from './cpu-timed';
import { describeMachine, finishMachine } from './machine';
import { percentile } from './stats';

const ROUNDS = 5_000;
const WARM_UP = 1_000;

const v8Frames = (count: number) =>
  Array.from({ length: count }, (_, i) => `    at handler${i} (https://shop.example.com/assets/app-3f9a1c2b.js:${100 + i}:${17 + i})`).join('\n');

const own = Buffer.from(
  JSON.stringify({
    events: [
      {
        eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11',
        message: "TypeError: Cannot read properties of undefined (reading 'price')",
        exception: { type: 'TypeError', value: "Cannot read properties of undefined (reading 'price')", stack: `TypeError: x\n${v8Frames(12)}` },
        pageUrl: 'https://shop.example.com/checkout/step/2',
        release: 'web@1.4.2',
        tags: { plan: 'pro', locale: 'de-DE' },
        reporter: { email: 'ada@example.com', name: 'Ada' },
      },
    ],
  }),
);

/** A Node SDK event as @sentry/node 11 sends it: 12 frames with source context, contexts, modules. */
const nodeEvent = {
  event_id: '8f0c1a523b6e4c7e9a432f5d1e0b7c11',
  platform: 'node',
  level: 'error',
  timestamp: 1_764_240_000.123,
  release: 'billing@1.4.2',
  environment: 'production',
  server_name: 'ip-10-0-1-17',
  tags: { plan: 'pro' },
  user: { id: '42', email: 'ada@example.com', username: 'ada' },
  contexts: { runtime: { name: 'node', version: 'v20.20.2' }, os: { name: 'Linux' }, app: { app_memory: 52_000_000 } },
  modules: Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`module-${i}`, `1.${i}.0`])),
  exception: {
    values: [
      {
        type: 'TypeError',
        value: "Cannot read properties of undefined (reading 'price')",
        mechanism: { type: 'generic', handled: true },
        stacktrace: {
          frames: Array.from({ length: 12 }, (_, i) => ({
            filename: `/srv/billing/src/handler${i}.js`,
            module: `handler${i}`,
            function: `handler${i}`,
            lineno: 100 + i,
            colno: 17,
            in_app: i > 3,
            pre_context: ['  const order = await load(id);', '  if (!order) return;'],
            context_line: '  return order.items[0].price * order.quantity;',
            post_context: ['}', ''],
          })),
        },
      },
    ],
  },
};
const envelopeText = `${JSON.stringify({ event_id: nodeEvent.event_id, sent_at: '2026-11-27T10:00:00.000Z', sdk: { name: 'sentry.javascript.node', version: '11.12.0' } })}\n{"type":"event"}\n${JSON.stringify(nodeEvent)}\n`;
const envelope = Buffer.from(envelopeText);
const envelopeGzip = gzipSync(envelope);
const storeGzip = gzipSync(JSON.stringify({ ...nodeEvent, platform: 'python' }));

const timed = (work: () => void) => cpuTimed(work, ROUNDS, WARM_UP);

function sentryWork(body: Buffer, encoding: string | undefined, frame: (decoded: Buffer) => SentryRequest) {
  return () => {
    const request = frame(decodeBody(body, encoding, SENTRY_LIMITS.decodedBytes));
    for (const raw of request.events) {
      const reading = readSentryEvent(raw, request.header.event_id);
      if (!reading.ok) throw new Error(reading.problems.join('; '));
      groupEvent(reading.value);
    }
  };
}

const cases: [string, number, () => void][] = [
  [
    'own SDK: one event, 12 frames as stack text',
    own.length,
    () => {
      const body = JSON.parse(own.toString('utf8')) as { events: unknown[] };
      for (const raw of body.events) {
        const reading = readEvent(raw);
        if (!reading.ok) throw new Error(reading.problems.join('; '));
        groupEvent(reading.value);
      }
    },
  ],
  ['@sentry/node envelope, plain (12 frames with context, 60 modules)', envelope.length, sentryWork(envelope, undefined, readEnvelopeRequest)],
  ['the same envelope, gzip', envelopeGzip.length, sentryWork(envelopeGzip, 'gzip', readEnvelopeRequest)],
  ['Python-style store body, gzip', storeGzip.length, sentryWork(storeGzip, 'gzip', readStoreRequest)],
];

const USAGE = `usage: npm run bench:sentry

Times turning one request into events ready to store, for Sentry SDKs' requests against the own SDK's,\nand writes bench/sentry-results.md. Takes no options.`;

runWithoutOptions(USAGE, () => {
  const machine = describeMachine('none');
  const rows = cases.map(([name, bytes, work]) => {
    const { samples, cpuMean } = timed(work);
    return `| ${name} | ${bytes.toLocaleString('en-US')} | ${[percentile(samples, 0.5), percentile(samples, 0.99), cpuMean].map((value) => value.toFixed(1)).join(' | ')} |`;
  });
  const done = finishMachine(machine);
  const report = [
    '# Sentry protocol: parse cost per request',
    '',
    `\`npm run bench:sentry\`, ${ROUNDS} requests per shape after ${WARM_UP} of warm-up, timed one by one (µs): decode, frame, map, read (clean, scrub), group. Storing is the same code and calls for both (tools/bench/sentry.ts says why).`,
    `${done.cpuModel}, ${done.cores} cores, Node.js ${done.node}, ${done.date}; load average ${done.loadAtStart.toFixed(2)} at the start, ${(done.loadAtEnd ?? 0).toFixed(2)} at the end.`,
    '',
    '| request | bytes sent | p50 | p99 | CPU mean |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(report);
  writeFileSync(join(PROJECT_ROOT, 'bench', 'sentry-results.md'), report);
});
