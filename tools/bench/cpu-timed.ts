/**
 * Wall time per call (µs), and the mean CPU time per call over the run
 * (process.cpuUsage): on a shared, loaded machine the wall times' tail shows
 * the scheduler, the CPU mean shows the work. For the CPU-only benches (scrub, sentry).
 */
export function cpuTimed(work: () => void, rounds: number, warmUp: number): { samples: number[]; cpuMean: number } {
  for (let i = 0; i < warmUp; i += 1) work();
  const samples: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < rounds; i += 1) {
    const start = performance.now();
    work();
    samples.push((performance.now() - start) * 1000);
  }
  const used = process.cpuUsage(cpu);
  return { samples, cpuMean: (used.user + used.system) / rounds };
}
