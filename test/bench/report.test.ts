import { renderReport, type BenchReport } from '../../tools/bench/report';
import type { SideResult, ThroughputResult, ThroughputRow } from '../../tools/bench/throughput';

const side = (rps: number): SideResult => ({ rps: [rps], p50ms: 10, p99ms: 20, cpuMsPerRequest: 2, machineBusy: 0.5, problems: [] });

/** A latency-bound comparison: the empty service at `empty` req/s, the service at `ratio` of it, the bare client at 100. */
function throughput(ratio: number, empty = 90): ThroughputResult {
  const row: ThroughputRow = {
    shape: 'upsert',
    label: 'upsert (update, no company)',
    service: { ...side(empty * ratio), stdoutBytesPerRequest: 1000, loadGeneratorCpuMsPerRequest: 0.3 },
    empty: side(empty),
    bare: side(100),
    ratios: [ratio, ratio, ratio],
    emptyRatios: [empty / 100],
    bareRatios: [(empty * ratio) / 100],
    bareSequence: 'R1: UpdateItem key → R2: UpdateItem contact',
    bareRounds: 2,
  };
  return { rows: [row], options: { connections: 1, delayMs: 5, durationS: 1, warmupS: 1, runs: 3, functionEnvironment: {} } };
}

function report(parts: Partial<BenchReport>): BenchReport {
  return {
    command: 'npm run bench',
    machine: { cpuModel: 'test', cores: 2, memoryGb: 1, node: 'v20', dynamodb: 'test', date: '2026-01-01', loadAtStart: 1 },
    seconds: 1,
    cost: { roundTripMs: 5, fallbackCpuMs: 1 },
    ...parts,
  };
}

const counts = (upsert: [number, number], get: [number, number]): BenchReport['instructions'] => ({
  requests: [300, 900],
  node: 'v20',
  counts: [
    { shape: 'upsert', label: 'upsert (update, no company)', bare: upsert[0], handler: upsert[1] },
    { shape: 'get', label: 'GET by id', bare: get[0], handler: get[1] },
  ],
});

/** The targets table's rows, as [target, measured on, measured, result]. */
function targets(text: string): string[][] {
  const section = text.slice(text.indexOf('## Targets'), text.indexOf('## 3.'));
  return section
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| target') && !line.startsWith('| ---'))
    .map((line) => line.slice(2, -2).split(' | '));
}

const row = (rows: string[][], start: string, on?: string) => rows.find((r) => (r[0] as string).startsWith(start) && (on === undefined || r[1] === on));

describe('the restated targets', () => {
  test('throughput is judged as service ÷ empty service, at least 0.95', () => {
    expect(
      row(
        targets(renderReport(report({ throughput: throughput(0.96) }))),
        'throughput service ÷ empty service ≥ 0.95 (+5 ms per DynamoDB call, 1 connection)',
      )?.slice(2),
    ).toEqual(['0.960', 'PASS']);
    expect(row(targets(renderReport(report({ throughput: throughput(0.94) }))), 'throughput service ÷ empty service')?.[3]).toBe('**FAIL**');
  });

  test("the browser SDK's one-file build is judged against its gzipped budget", () => {
    const sdk = (gzipBytes: number) =>
      row(targets(renderReport(report({ browserSdk: { bytes: 9000, gzipBytes, budgetBytes: 5120 } }))), 'browser SDK under 5,120 bytes gzipped');
    expect(sdk(4100)?.slice(1)).toEqual(['one-file build', '4,100 bytes (bench/sdk-size.md)', 'PASS']);
    expect(sdk(5121)?.[3]).toBe('**FAIL**');
  });

  test('a service as fast as the empty one passes however far both are from the bare client (HTTP costs what it costs here)', () => {
    const rows = targets(renderReport(report({ throughput: throughput(1, 70) })));
    expect(row(rows, 'throughput service ÷ empty service')?.[3]).toBe('PASS');
    expect(row(rows, '(for reading the above) empty service ÷ bare client')?.slice(2)).toEqual(['0.70', '—']);
  });

  test('instructions are judged per shape as handler ÷ bare client, at most 1.10', () => {
    const rows = targets(renderReport(report({ instructions: counts([8.4e6, 9.2e6], [8.0e6, 8.9e6]) })));
    expect(row(rows, 'instructions handler ÷ bare client ≤ 1.10', 'upsert (update, no company)')?.slice(2)).toEqual(['1.095', 'PASS']);
    expect(row(rows, 'instructions handler ÷ bare client ≤ 1.10', 'GET by id')?.slice(2)).toEqual(['1.113', '**FAIL**']);
  });

  test('without valgrind the instruction target says why it was not counted, neither passed nor failed', () => {
    const rows = targets(renderReport(report({ instructions: { skipped: 'valgrind is not on PATH' } })));
    expect(row(rows, 'instructions handler ÷ bare client')?.slice(2)).toEqual(['not counted: valgrind is not on PATH', '—']);
  });

  test('prints the comparison with per-run ranges and where the time per request goes', () => {
    // bare 100 req/s (10 ms), empty service 80 req/s (12.5 ms), service 75 req/s (13.33 ms).
    const text = renderReport(report({ throughput: throughput(75 / 80, 80) }));
    expect(text).toContain('## 3. Throughput: the service against the empty service');
    expect(text).toContain('0.938 (0.938–0.938)');
    expect(text).toContain(
      'upsert (update, no company): 10.00 ms per request for the bare client, +2.50 ms for HTTP alone (the empty service), +0.83 ms more for the service',
    );
  });

  test('prints the instruction counts with what the handler adds', () => {
    const text = renderReport(report({ instructions: counts([8.4e6, 9.2e6], [8.0e6, 8.9e6]) }));
    expect(text).toContain('| upsert (update, no company) | 8.40 M | 9.20 M | 0.80 M | 1.095 | PASS |');
  });
});
