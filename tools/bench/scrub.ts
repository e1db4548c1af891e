/**
 * npm run bench:scrub: the CPU the ingest API spends reading one event
 * (validation, the free-text rule, scrubbing: lambda/ingest/payloads.ts),
 * and the scrubbing alone, per event, for three realistic shapes: an
 * ordinary error (a message, a V8 stack of 12 frames, a page URL, tags), the
 * same carrying secrets in every field, and the largest event the limits let
 * through (8 KB message, 16 KB stack). No DynamoDB, no HTTP: one process,
 * timed event by event after a warm-up; prints p50 and p99 in microseconds
 * and the mean CPU time, and writes them to bench/scrub-results.md.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEvent } from '../../lambda/ingest/payloads';
import { Scrubber } from '../../lambda/ingest/scrub/scrubber';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { runWithoutOptions } from '../../local/harness/cli';
import { cpuTimed } from './cpu-timed';
import { describeMachine, finishMachine } from './machine';
import { percentile } from './stats';

const ROUNDS = 5_000;
const WARM_UP = 1_000;

const frames = (count: number) =>
  Array.from({ length: count }, (_, i) => `    at handler${i} (https://shop.example.com/assets/app-3f9a1c2b.js:${100 + i}:${17 + i})`).join('\n');

const ordinary = {
  eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11',
  message: "TypeError: Cannot read properties of undefined (reading 'price') while rendering order 1234 for cart 8f0c1a52",
  exception: {
    type: 'TypeError',
    value: "Cannot read properties of undefined (reading 'price')",
    stack: `TypeError: Cannot read properties of undefined (reading 'price')\n${frames(12)}`,
  },
  pageUrl: 'https://shop.example.com/checkout/step/2?cart=8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11&utm_source=newsletter#payment',
  release: 'web@1.4.2',
  tags: { plan: 'pro', browser: 'Chrome 131', locale: 'de-DE', feature: 'one-click', build: '2026-11-27T10:00:00Z' },
  reporter: { email: 'ada@example.com', name: 'Ada' },
};

const hostile = {
  ...ordinary,
  message: `Payment failed for 4111 1111 1111 1111 (customer grace@example.org) with {"password": "hunter2"}`,
  exception: { ...ordinary.exception, value: 'rejected Authorization: Bearer gho_16C7e42F292c6912E7710c838347Ae178B4a' },
  pageUrl: 'https://shop.example.com/reset?token=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJncmFjZSJ9.c2lnbmF0dXJl&email=grace%40example.org',
  tags: { ...ordinary.tags, authToken: 'tok_live_9f2c8e7a6b5d', iban: 'DE89 3704 0044 0532 0130 00' },
};

const largest = {
  ...ordinary,
  message: `${ordinary.message} `.repeat(80).slice(0, 8192),
  exception: { ...ordinary.exception, stack: `TypeError: x\n${frames(200)}`.slice(0, 16_384) },
};

/** Every free-text field an event's scrubber sees. */
const textsOf = (event: typeof ordinary): string[] => [
  event.message,
  event.exception.type,
  event.exception.value,
  event.exception.stack,
  event.pageUrl,
  event.release,
  ...Object.entries(event.tags).flat(),
];

const timed = (work: () => void) => cpuTimed(work, ROUNDS, WARM_UP);

const micro = (value: number) => value.toFixed(1);

const USAGE = `usage: npm run bench:scrub

Times reading and scrubbing one event of three shapes (ordinary, secrets in every field, the largest\nthe limits let through), prints p50 and p99 in microseconds and the mean CPU, and writes\nbench/scrub-results.md. Takes no options.`;

runWithoutOptions(USAGE, () => {
  const machine = describeMachine('none');
  const rows: string[] = [];
  for (const [name, event] of [
    ['ordinary error (12 frames, 1.4 KB)', ordinary],
    ['the same with secrets in every field', hostile],
    ['largest (8 KB message, 16 KB stack)', largest],
  ] as const) {
    const texts = textsOf(event as typeof ordinary);
    const read = timed(() => readEvent(event));
    const scrub = timed(() => {
      const scrubber = new Scrubber();
      for (const text of texts) scrubber.text(text);
    });
    const cells = [read, scrub].flatMap(({ samples, cpuMean }) => [percentile(samples, 0.5), percentile(samples, 0.99), cpuMean].map(micro));
    rows.push(`| ${name} | ${cells.join(' | ')} |`);
  }

  const done = finishMachine(machine);
  const report = [
    '# Scrubbing: CPU per event',
    '',
    `\`npm run bench:scrub\`, ${ROUNDS} events per shape after ${WARM_UP} of warm-up, timed one by one (µs).`,
    `${done.cpuModel}, ${done.cores} cores, Node.js ${done.node}, ${done.date}; load average ${done.loadAtStart.toFixed(2)} at the start, ${(done.loadAtEnd ?? 0).toFixed(2)} at the end.`,
    '',
    '| event | read p50 | read p99 | read, CPU mean | of which scrubbing p50 | scrubbing p99 | scrubbing, CPU mean |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
  process.stdout.write(report);
  writeFileSync(join(PROJECT_ROOT, 'bench', 'scrub-results.md'), report);
});
