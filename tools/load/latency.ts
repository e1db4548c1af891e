/** Latencies and statuses per kind of request, and their percentiles. */

export interface Summary {
  count: number;
  p50: number;
  p99: number;
  max: number;
  statuses: Record<string, number>;
  unexpected: number;
}

/** The value at quantile q of sorted values (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export class Recorder {
  /** Overall latencies by second of the run, for the timeline. */
  private readonly perSecond: number[][] = [];
  private readonly latencies = new Map<string, number[]>();
  private readonly statuses = new Map<string, Record<string, number>>();
  private readonly unexpected = new Map<string, number>();

  record(kind: string, latencyMs: number, status: string, expected: boolean, second = 0): void {
    (this.perSecond[second] ??= []).push(latencyMs);
    for (const key of [kind, 'overall']) {
      const latencies = this.latencies.get(key) ?? [];
      latencies.push(latencyMs);
      this.latencies.set(key, latencies);
      const counts = this.statuses.get(key) ?? {};
      counts[status] = (counts[status] ?? 0) + 1;
      this.statuses.set(key, counts);
      if (!expected) this.unexpected.set(key, (this.unexpected.get(key) ?? 0) + 1);
    }
  }

  /** p50 and p99 of the requests due in each `seconds`-long window: shows a stall, or latency creeping up. */
  timeline(seconds: number): { from: number; count: number; p50: number; p99: number }[] {
    const windows = [];
    for (let from = 0; from < this.perSecond.length; from += seconds) {
      const sorted = this.perSecond
        .slice(from, from + seconds)
        .flatMap((values) => values ?? [])
        .sort((a, b) => a - b);
      windows.push({ from, count: sorted.length, p50: quantile(sorted, 0.5), p99: quantile(sorted, 0.99) });
    }
    return windows;
  }

  summary(kind: string): Summary {
    const sorted = [...(this.latencies.get(kind) ?? [])].sort((a, b) => a - b);
    return {
      count: sorted.length,
      p50: quantile(sorted, 0.5),
      p99: quantile(sorted, 0.99),
      max: sorted[sorted.length - 1] ?? Number.NaN,
      statuses: this.statuses.get(kind) ?? {},
      unexpected: this.unexpected.get(kind) ?? 0,
    };
  }
}
