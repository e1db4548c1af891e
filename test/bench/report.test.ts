import { renderReport, type BenchReport } from '../../tools/bench/report';
import type { SideResult, ThroughputResult, ThroughputRow } from '../../tools/bench/throughput';

const side = (rps: number): SideResult => ({ rps: [rps], p50ms: 10, p99ms: 20, cpuMsPerRequest: 2, machineBusy: 0.5, problems: [] });

function comparison(delayMs: number, connections: number, ratio: number, emptyRatio = 0.96): ThroughputResult {
  const row: ThroughputRow = {
    shape: 'upsert',
    label: 'upsert (update, no company)',
    service: { ...side(100 * ratio), stdoutBytesPerRequest: 1000, loadGeneratorCpuMsPerRequest: 0.3 },
    handler: side(100),
    empty: side(100 * emptyRatio),
    bare: side(100),
    ratios: [ratio, ratio, ratio],
    handlerRatios: [0.97],
    emptyRatios: [emptyRatio],
    bareSequence: 'R1: UpdateItem key → R2: UpdateItem contact',
    bareRounds: 2,
  };
  return { rows: [row], options: { connections, delayMs, durationS: 1, warmupS: 1, runs: 3, functionEnvironment: {} } };
}

function report(latencyRatio: number, cpuRatio: number, latencyEmptyRatio = 0.96): BenchReport {
  return {
    command: 'npm run bench',
    machine: { cpuModel: 'test', cores: 2, memoryGb: 1, node: 'v20', dynamodb: 'test', date: '2026-01-01', loadAtStart: 1 },
    seconds: 1,
    throughput: { cpuBound: comparison(0, 8, cpuRatio), latencyBound: comparison(5, 1, latencyRatio, latencyEmptyRatio) },
    cost: { roundTripMs: 5, fallbackCpuMs: 1 },
  };
}

/** The targets table's rows, as [target, measured on, measured, result]. */
function targets(text: string): string[][] {
  const section = text.slice(text.indexOf('## Targets'), text.indexOf('## 3.'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| ---'))
    .map((line) => line.slice(2, -2).split(' | '));
}

describe('the throughput targets', () => {
  it('judges the target on the latency-bound ratio and shows the CPU-bound one as information', () => {
    const rows = targets(renderReport(report(0.95, 0.6)));
    const judged = rows.filter((row) => (row[0] as string).startsWith('throughput service / bare client ≥ 0.9, latency-bound (+5 ms per DynamoDB call, 1 connection)'));
    expect(judged.map((row) => [row[2], row[3]])).toEqual([['0.95', 'PASS']]);
    const informational = rows.filter((row) => (row[0] as string).includes('CPU-bound on this machine (DynamoDB Local shares the 2 cores)'));
    expect(informational.map((row) => [row[2], row[3]])).toEqual([['0.60', '—']]);
  });

  it('fails on a latency-bound ratio below the target, whatever the CPU-bound one', () => {
    const rows = targets(renderReport(report(0.85, 0.99)));
    expect(rows.find((row) => (row[0] as string).includes('latency-bound (+5 ms'))?.[3]).toBe('**FAIL**');
    expect(rows.find((row) => (row[0] as string).includes('CPU-bound on this machine'))?.[3]).toBe('—');
  });

  it('prints both comparisons with their ratios', () => {
    const text = renderReport(report(0.95, 0.6));
    expect(text).toContain('### Latency-bound: +5 ms per DynamoDB call, 1 connection (the target)');
    expect(text).toContain('### CPU-bound on this machine (DynamoDB Local shares the 2 cores): informational');
    expect(text).toContain('0.95 (0.95–0.95)');
    expect(text).toContain('0.60 (0.60–0.60)');
  });

  it('judges the service against the bare client, never against the empty service', () => {
    // A service as fast as the empty one, both below the target: still a FAIL.
    const rows = targets(renderReport(report(0.85, 0.6, 0.85)));
    expect(rows.find((row) => (row[0] as string).includes('latency-bound (+5 ms'))?.[3]).toBe('**FAIL**');
  });

  it('shows the empty service against the bare client as a reading aid, not a target', () => {
    const rows = targets(renderReport(report(0.9, 0.6, 0.88)));
    const empty = rows.find((row) => (row[0] as string).startsWith('(for reading the above) empty service / bare client'));
    expect(empty?.[2]).toBe('latency-bound 0.88; CPU-bound 0.96');
    expect(empty?.[3]).toBe('—');
  });

  it('splits the latency-bound time per request into what HTTP costs and what the service adds', () => {
    // bare 100 req/s (10 ms), empty service 80 req/s (12.5 ms), service 75 req/s (13.33 ms).
    const text = renderReport(report(0.75, 0.6, 0.8));
    expect(text).toContain('upsert (update, no company): 10.00 ms per request for the bare client, +2.50 ms for HTTP alone (the empty service), +0.83 ms more for the service');
  });
});
