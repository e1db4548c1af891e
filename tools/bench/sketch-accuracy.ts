import { PRECISION } from '../../lambda/kernel/distinct-sketch';
import { sketchError } from './sketch-error';

/**
 * `npm run bench:sketch-accuracy [-- --runs-scale N]`: the kernel's distinct sketch (lambda/kernel/distinct-sketch.ts)
 * counted over many seeded runs at 1,000 / 10,000 / 100,000 / 1,000,000 distinct hashes, each run its own seed; prints
 * the RMS, the 99th percentile and the largest |relative error| per size, as docs/report-issues.md quotes them.
 * Deterministic: the same figures every run. npm test keeps the fast part (test/lambda/kernel/distinct-sketch.test.ts).
 */
const scaleAt = process.argv.indexOf('--runs-scale');
const scale = scaleAt > 0 ? Number(process.argv[scaleAt + 1]) : 1;
if (!Number.isFinite(scale) || scale <= 0) {
  console.error('--runs-scale must be a positive number (1: 1,000 / 300 / 100 / 30 runs)');
  process.exit(2);
}
const percent = (value: number) => `${(value * 100).toFixed(2)} %`;
console.log(`distinct sketch, precision ${PRECISION} (${1 << PRECISION} registers), seeded runs`);
for (const [size, runs] of [
  [1_000, 1_000],
  [10_000, 300],
  [100_000, 100],
  [1_000_000, 30],
] as const) {
  const started = process.cpuUsage();
  const error = sketchError(size, Math.max(1, Math.round(runs * scale)));
  const cpu = process.cpuUsage(started);
  console.log(
    `${String(size).padStart(9)} distinct × ${String(error.runs).padStart(4)} runs: RMS ${percent(error.rms)}, p99 |error| ${percent(error.p99)}, max ${percent(error.max)}, mean ${percent(error.mean)} (${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU)`,
  );
}
