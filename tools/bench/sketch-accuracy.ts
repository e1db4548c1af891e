import { PRECISION } from '../../lambda/kernel/distinct-sketch';
import { sketchError } from './sketch-error';
import { parseCommandLine, runCommand, UsageError } from '../../local/harness/cli';

/**
 * `npm run bench:sketch-accuracy [-- --runs-scale N]`: the kernel's distinct sketch (lambda/kernel/distinct-sketch.ts)
 * counted over many seeded runs at 1,000 / 10,000 / 100,000 / 1,000,000 distinct hashes, each run its own seed; prints
 * the RMS, the 99th percentile and the largest |relative error| per size, as docs/report-issues.md quotes them.
 * Deterministic: the same figures every run. npm test keeps the fast part (test/lambda/kernel/distinct-sketch.test.ts).
 */
const USAGE = `usage: npm run bench:sketch-accuracy [-- --runs-scale N]

Counts the distinct sketch over many seeded runs at 1,000 to 1,000,000 distinct hashes and prints the RMS,
the 99th percentile and the largest relative error per size. Deterministic.

  --runs-scale N   the runs per size times N (default 1: 1,000 / 300 / 100 / 30 runs)`;

const percent = (value: number) => `${(value * 100).toFixed(2)} %`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { 'runs-scale': { type: 'string' } });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const scale = values['runs-scale'] === undefined ? 1 : Number(values['runs-scale']);
  if (!Number.isFinite(scale) || scale <= 0) throw new UsageError('--runs-scale must be a positive number (1: 1,000 / 300 / 100 / 30 runs)');
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
});
