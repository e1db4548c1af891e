import fc from 'fast-check';
import type { Alert, IssueSnapshot } from '../../../lambda/alerts/alert';
import { DEFAULT_ALERT_SETTINGS, type SpikeSettings } from '../../../lambda/alerts/settings';
import { alertsOf, BASELINE_BUCKETS, BUCKET_MS, spikeThreshold } from '../../../lambda/alerts/triggers';

/**
 * The trigger rules (docs/alerts.md#what-triggers-an-alert) as properties:
 * a history of writes to issue items becomes stream records; the records
 * are delivered in any order, any number of times (a retried batch, a
 * redelivered record), interleaved between issues; each alert is kept once
 * per id, as the conditional put does. Then exactly one alert stands per
 * occurrence: one "new" per life of an issue, one "regressed" per reopening
 * by an event, one "spike" per bucket that reached its threshold.
 */
type Record = { before?: IssueSnapshot; after?: IssueSnapshot };

const START = Date.UTC(2026, 10, 25, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
/** What the stream counter keeps of the per-5-minute counts: the last 13 buckets. */
const KEPT_BUCKETS = BASELINE_BUCKETS + 1;

function snapshot(issueId: string, fields: Partial<IssueSnapshot>): IssueSnapshot {
  return {
    factoryId: 'fac_prop',
    issueId,
    title: 'TypeError: x',
    status: 'open',
    count: 0,
    firstSeen: iso(START),
    lastSeen: iso(START),
    regressions: 0,
    fiveMinute: {},
    ...fields,
  };
}

/** Delivers every record at least once, in a shuffled order with repeats, and keeps each alert id once. */
function deliver(records: Record[], order: number[], settings: SpikeSettings): { accepted: Alert[]; seen: number } {
  const stored = new Set<string>();
  const accepted: Alert[] = [];
  let seen = 0;
  for (const index of order) {
    const record = records[index] as Record;
    for (const alert of alertsOf(record.before, record.after, settings)) {
      seen += 1;
      if (stored.has(alert.alertId)) continue;
      stored.add(alert.alertId);
      accepted.push(alert);
    }
  }
  return { accepted, seen };
}

/** A delivery order: each record once, plus repeats, shuffled by the given keys. */
const deliveryOrder = (count: number) =>
  fc
    .tuple(
      fc.array(fc.nat({ max: Math.max(0, count - 1) }), { maxLength: count * 2 }),
      fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: count * 3, maxLength: count * 3 }),
    )
    .map(([extra, keys]) => {
      const all = [...Array.from({ length: count }, (_, index) => index), ...extra.filter((index) => index < count)];
      return all
        .map((index, position) => ({ index, key: keys[position] ?? 0 }))
        .sort((a, b) => a.key - b.key)
        .map((entry) => entry.index);
    });

const settingsArb = fc.record({ spikeMultiple: fc.integer({ min: 2, max: 20 }), spikeFloor: fc.integer({ min: 1, max: 60 }) });

/** Events of one issue over time: per write, how many buckets later than the last write, and how many events. */
const burstsArb = fc.array(
  fc.record({
    step: fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 4, max: 15 })),
    events: fc.oneof(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 20, max: 400 })),
  }),
  {
    minLength: 1,
    maxLength: 25,
  },
);

/** The writes of one issue item as the stream counter makes them: counts per bucket, the oldest dropped past 13 buckets. */
function issueWrites(issueId: string, bursts: { step: number; events: number }[]): { records: Record[]; finalCounts: Map<number, number> } {
  const records: Record[] = [];
  const finalCounts = new Map<number, number>();
  let bucket = START;
  let before: IssueSnapshot | undefined;
  for (const { step, events } of bursts) {
    bucket += step * BUCKET_MS;
    finalCounts.set(bucket, (finalCounts.get(bucket) ?? 0) + events);
    const kept = Object.fromEntries([...finalCounts].filter(([start]) => start > bucket - KEPT_BUCKETS * BUCKET_MS));
    const after = snapshot(issueId, { count: (before?.count ?? 0) + events, lastSeen: iso(bucket), fiveMinute: kept });
    records.push({ before, after });
    before = after;
  }
  return { records, finalCounts };
}

describe('trigger rules: exactly one alert per occurrence over any redelivery and interleaving', () => {
  test('spikes: one per bucket whose final count reaches its threshold (the multiple of the hour before, never under the floor), one "new" per issue', () => {
    fc.assert(
      fc.property(settingsArb, burstsArb, burstsArb, (settings, burstsA, burstsB) => {
        const a = issueWrites('iss_aaaaaaaaaaaaaaaaaaaa', burstsA);
        const b = issueWrites('iss_bbbbbbbbbbbbbbbbbbbb', burstsB);
        const records = [...a.records, ...b.records];
        const expected = new Set<string>([`new:iss_aaaaaaaaaaaaaaaaaaaa:${iso(START)}`, `new:iss_bbbbbbbbbbbbbbbbbbbb:${iso(START)}`]);
        for (const [issueId, { finalCounts }] of [
          ['iss_aaaaaaaaaaaaaaaaaaaa', a],
          ['iss_bbbbbbbbbbbbbbbbbbbb', b],
        ] as const) {
          const counts = Object.fromEntries(finalCounts);
          for (const [bucket, events] of finalCounts) if (events >= spikeThreshold(counts, bucket, settings)) expected.add(`spike:${issueId}:${iso(bucket)}`);
        }
        fc.assert(
          fc.property(deliveryOrder(records.length), (order) => {
            const { accepted } = deliver(records, order, settings);
            expect(accepted.map((alert) => alert.alertId).sort()).toEqual([...expected].sort());
          }),
          { numRuns: 10 },
        );
      }),
      { numRuns: 150 },
    );
  });

  test('a quiet issue makes no spike: under the floor nothing fires, whatever the multiple', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ step: fc.integer({ min: 0, max: 3 }), events: fc.integer({ min: 1, max: 3 }) }), { minLength: 1, maxLength: 30 }),
        (bursts) => {
          const { records } = issueWrites('iss_cccccccccccccccccccc', bursts);
          const perBucket = new Map<number, number>();
          let bucket = START;
          for (const burst of bursts) {
            bucket += burst.step * BUCKET_MS;
            perBucket.set(bucket, (perBucket.get(bucket) ?? 0) + burst.events);
          }
          const floor = Math.max(...perBucket.values()) + 1;
          const { accepted } = deliver(
            records,
            records.map((_, index) => index),
            { ...DEFAULT_ALERT_SETTINGS, spikeFloor: floor },
          );
          expect(accepted.filter((alert) => alert.type === 'issue.spiking')).toEqual([]);
        },
      ),
      { numRuns: 200 },
    );
  });

  type Step = 'event' | 'resolve' | 'ignore' | 'reopen' | 'expire';
  const stepsArb = fc.array(fc.constantFrom<Step>('event', 'event', 'event', 'resolve', 'ignore', 'reopen', 'expire'), { minLength: 1, maxLength: 40 });

  /** An issue's life as the ingest API and the control room write it: events, status changes, expiry and a new start. */
  function lifeOf(steps: Step[]): { records: Record[]; lives: string[]; regressions: Map<string, number> } {
    const records: Record[] = [];
    const lives: string[] = [iso(START)];
    const regressions = new Map<string, number>();
    let clock = START;
    let current = snapshot('iss_dddddddddddddddddddd', { count: 1 });
    records.push({ after: current });
    for (const step of steps) {
      clock += 60_000;
      let next: IssueSnapshot;
      if (step === 'event') {
        const regressed = current.status === 'resolved';
        next = {
          ...current,
          count: current.count + 1,
          lastSeen: iso(clock),
          ...(regressed ? { status: 'open', regressions: current.regressions + 1, regressedAt: iso(clock) } : {}),
        };
        if (regressed) regressions.set(current.firstSeen, (regressions.get(current.firstSeen) ?? 0) + 1);
      } else if (step === 'expire') {
        next = snapshot('iss_dddddddddddddddddddd', { count: 1, firstSeen: iso(clock), lastSeen: iso(clock) });
        lives.push(iso(clock));
      } else {
        next = { ...current, status: step === 'resolve' ? 'resolved' : step === 'ignore' ? 'ignored' : 'open' };
      }
      records.push({ before: current, after: next });
      current = next;
    }
    return { records, lives, regressions };
  }

  test('"new" once per life of an issue (an expired issue that comes back is new again), "regressed" once per reopening by an event', () => {
    fc.assert(
      fc.property(stepsArb, (steps) => {
        const { records, lives, regressions } = lifeOf(steps);
        fc.assert(
          fc.property(deliveryOrder(records.length), (order) => {
            const { accepted } = deliver(records, order, DEFAULT_ALERT_SETTINGS);
            const ids = accepted.map((alert) => alert.alertId);
            expect(new Set(ids).size).toBe(ids.length);
            expect(
              accepted
                .filter((alert) => alert.type === 'issue.created')
                .map((alert) => alert.occurredAt)
                .sort(),
            ).toEqual([...lives].sort());
            for (const life of lives) {
              expect(accepted.filter((alert) => alert.type === 'issue.regressed' && alert.issue.firstSeen === life)).toHaveLength(regressions.get(life) ?? 0);
            }
          }),
          { numRuns: 10 },
        );
      }),
      { numRuns: 200 },
    );
  });

  test('an earlier event counted late moves first seen back within the same life and alerts nothing new', () => {
    // Two containers take a new bug's first events; the tally counts the later one's shard first.
    const counted = snapshot('iss_ffffffffffffffffffff', { count: 1, firstSeen: iso(START + 2_000), lastSeen: iso(START + 2_000) });
    const earlierCountedLate = { ...counted, count: 2, firstSeen: iso(START + 1_000) };
    const created = alertsOf(undefined, counted, DEFAULT_ALERT_SETTINGS).filter((alert) => alert.type === 'issue.created');
    expect(created.map((alert) => alert.alertId)).toEqual([`new:iss_ffffffffffffffffffff:${iso(START + 2_000)}`]);
    expect(alertsOf(counted, earlierCountedLate, DEFAULT_ALERT_SETTINGS)).toEqual([]);
  });

  test("an issue that replaced an expired one (its first event after the old life's last) is new again", () => {
    const old = snapshot('iss_gggggggggggggggggggg', { count: 7, firstSeen: iso(START), lastSeen: iso(START + 60_000), status: 'resolved', regressions: 2 });
    const replaced = snapshot('iss_gggggggggggggggggggg', { count: 1, firstSeen: iso(START + 120_000), lastSeen: iso(START + 120_000) });
    expect(alertsOf(old, replaced, DEFAULT_ALERT_SETTINGS).map((alert) => [alert.type, alert.alertId])).toEqual([
      ['issue.created', `new:iss_gggggggggggggggggggg:${iso(START + 120_000)}`],
    ]);
  });

  test('a status change other than resolving, a removal (time to live) or an item of another kind alerts nothing; resolving alerts once', () => {
    const open = snapshot('iss_eeeeeeeeeeeeeeeeeeee', { count: 40, fiveMinute: { [START]: 40 } });
    expect(alertsOf(open, { ...open, status: 'ignored' }, DEFAULT_ALERT_SETTINGS)).toEqual([]);
    const resolved = { ...open, status: 'resolved' as const, statusChangedAt: '2026-11-25T12:30:00.000Z' };
    expect(alertsOf(open, resolved, DEFAULT_ALERT_SETTINGS).map((alert) => [alert.type, alert.occurredAt])).toEqual([
      ['issue.resolved', resolved.statusChangedAt],
    ]);
    expect(alertsOf(resolved, resolved, DEFAULT_ALERT_SETTINGS)).toEqual([]);
    expect(alertsOf(open, undefined, DEFAULT_ALERT_SETTINGS)).toEqual([]);
    expect(alertsOf(undefined, undefined, DEFAULT_ALERT_SETTINGS)).toEqual([]);
  });

  test('an ignored issue never spikes; the same burst on an open one does', () => {
    const quiet = snapshot('iss_ffffffffffffffffffff', { count: 1, fiveMinute: { [START]: 1 } });
    const burst = { count: 501, fiveMinute: { [START]: 1, [START + BUCKET_MS]: 500 } };
    expect(alertsOf({ ...quiet, status: 'ignored' }, { ...quiet, status: 'ignored', ...burst }, DEFAULT_ALERT_SETTINGS)).toEqual([]);
    expect(alertsOf(quiet, { ...quiet, ...burst }, DEFAULT_ALERT_SETTINGS).map((alert) => alert.type)).toEqual(['issue.spiking']);
  });
});
