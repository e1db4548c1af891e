/**
 * npm run bench:scrub-throughput: the scrubber's throughput on ordinary and
 * on hostile text of 1 KB, 64 KB and 1 MiB (docs/performance.md#scrubbing-throughput):
 * every rule of lambda/ingest/scrub/ over one text, in one process, CPU time
 * per text (process.cpuUsage), the median of a few runs. The shape of the
 * curve is the point: linear work costs 64 and 16 times more at each step up,
 * a quadratic rule 4,096 and 256 times. Also the probe of issue 48, one
 * event whose message is "x=" and "key" 21,000 times (62 KB), read whole as
 * the ingest API reads it (readEvent: cleaned, scrubbed, clipped).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readEvent } from '../../lambda/ingest/payloads';
import { scrubText } from '../../lambda/ingest/scrub/scrubber';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { describeMachine, finishMachine } from './machine';
import { runWithoutOptions } from '../../local/harness/cli';

const SIZES = [
  ['1 KB', 1024],
  ['64 KB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
] as const;

/** A text of `bytes` characters made by repeating `unit` (cut to the size). */
const filled = (unit: string, bytes: number) => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

const FRAME = '    at renderCart (https://shop.example.com/assets/app-3f9a1c2b.js:120:17)\n';

/** Text shapes: what pages send, and what is built to make a rule backtrack. */
export const SHAPES: readonly { name: string; hostile: boolean; text: (bytes: number) => string }[] = [
  { name: 'a stack of V8 frames', hostile: false, text: (bytes) => filled(FRAME, bytes) },
  {
    name: 'prose with numbers, URLs and ids',
    hostile: false,
    text: (bytes) => filled('Order 1234 for cart 8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11 failed at https://shop.example.com/checkout?step=2 (v1.4.2). ', bytes),
  },
  { name: '"x=" then "key" repeated (the probe of issue 48)', hostile: true, text: (bytes) => `x=${filled('key', bytes - 2)}` },
  { name: 'credential keys with open quotes: token="token="…', hostile: true, text: (bytes) => filled('token="', bytes) },
  { name: 'digits and spaces: 1 1 1 1 …', hostile: true, text: (bytes) => filled('1 ', bytes) },
  { name: 'address characters without a domain: a.a.a@…', hostile: true, text: (bytes) => `${filled('a.', bytes - 1)}@` },
  { name: 'hex and colons: a:a:a:…', hostile: true, text: (bytes) => filled('a:', bytes) },
  { name: 'base64 without end: eyJ…', hostile: true, text: (bytes) => filled('eyJhbGci', bytes) },
  { name: 'BEGIN lines without END', hostile: true, text: (bytes) => filled('-----BEGIN A B C PRIVATE KEY-----\n', bytes) },
  { name: 'quotes with backslashes: "\\"\\"…', hostile: true, text: (bytes) => `"${filled('\\"', bytes - 1)}` },
];

/** CPU milliseconds of scrubbing `text` once: the median of `runs`. */
function cpuMs(work: () => void, runs: number): number {
  const samples: number[] = [];
  for (let run = 0; run < runs; run += 1) {
    const started = process.cpuUsage();
    work();
    const used = process.cpuUsage(started);
    samples.push((used.user + used.system) / 1000);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)] as number;
}

function main(): void {
  const machine = describeMachine('none');
  // Warm the rules up (their patterns compiled and optimized) before anything is timed.
  for (const shape of SHAPES) scrubText(shape.text(4096), {});
  const rows: string[] = [];
  for (const shape of SHAPES) {
    const times = SIZES.map(([, bytes]) => {
      const text = shape.text(bytes);
      return cpuMs(() => scrubText(text, {}), bytes > 100_000 ? 3 : 9);
    });
    const [small, medium, large] = times as [number, number, number];
    const rate = ((1024 * 1024) / 1e6 / (large / 1000)).toFixed(0);
    rows.push(
      `| ${shape.name} | ${shape.hostile ? 'hostile' : 'ordinary'} | ${small.toFixed(3)} | ${medium.toFixed(2)} | ${large.toFixed(1)} | ${(large / medium).toFixed(1)} | ${rate} |`,
    );
  }
  const probe = { eventId: '8f0c1a52-3b6e-4c7e-9a43-2f5d1e0b7c11', message: `x=${'key'.repeat(21_000)}` };
  const probeMs = cpuMs(() => readEvent(probe), 9);
  const done = finishMachine(machine);
  const report = [
    '# Scrubbing throughput: ordinary and hostile text, 1 KB to 1 MiB',
    '',
    '`npm run bench:scrub-throughput`: every scrubbing rule over one text, CPU milliseconds (the median of 9 runs, 3 for 1 MiB).',
    `${done.cpuModel}, ${done.cores} cores, Node.js ${done.node}, ${done.date}; load average ${done.loadAtStart.toFixed(2)} at the start, ${(done.loadAtEnd ?? 0).toFixed(2)} at the end.`,
    '',
    '| text | kind | 1 KB | 64 KB | 1 MiB | 1 MiB ÷ 64 KB (linear: 16) | MB/s at 1 MiB |',
    '|---|---|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `The 62 KB probe of issue 48 (one event whose message is \`"x=" + "key" × 21,000\`), read as the ingest API reads it: ${probeMs.toFixed(2)} ms of CPU (target: under 50 ms).`,
    '',
  ].join('\n');
  process.stdout.write(report);
  writeFileSync(join(PROJECT_ROOT, 'bench', 'scrub-throughput.md'), report);
}

const USAGE = `usage: npm run bench:scrub-throughput

Times every scrubbing rule over ordinary and hostile texts of 1 KB, 64 KB and 1 MiB (CPU milliseconds) and
writes bench/scrub-throughput.md. Takes no options.`;

runWithoutOptions(USAGE, main);
