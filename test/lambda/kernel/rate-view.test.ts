import fc from 'fast-check';
import { decideRate, intervalUs, perMinutePolicy, toleranceUs } from '../../../lambda/kernel/rate-limit';
import { admitInView, unchargedUs, type RateView } from '../../../lambda/kernel/rate-view';

/** A container's view of a client's limit (lambda/kernel/rate-view.ts): admissions without a write while within the burst. */
const NOW = 1_764_072_020_000_000;
const policy = perMinutePolicy(60); // T = 1 s, B = 6
const T = intervalUs(policy);

describe('admitInView', () => {
  test('admits the first B requests of a burst without a write, and sends the (B+1)-th, the last the rule admits, to the store', () => {
    const view: RateView = {};
    for (let i = 1; i <= policy.burst; i += 1) {
      view.viewTatUs = admitInView(view, NOW, policy);
      expect(view.viewTatUs).toBe(NOW + i * T);
    }
    expect(admitInView(view, NOW, policy)).toBeUndefined();
  });

  test('starts from the shared TAT when it is ahead of the view, and from now once both have drained', () => {
    expect(admitInView({ sharedTatUs: NOW + 3 * T }, NOW, policy)).toBe(NOW + 4 * T);
    expect(admitInView({ sharedTatUs: NOW + toleranceUs(policy) }, NOW, policy)).toBeUndefined();
    expect(admitInView({ sharedTatUs: NOW - 5 * T, viewTatUs: NOW - T }, NOW, policy)).toBe(NOW + T);
  });

  test('a policy without a burst never admits without a write', () => {
    expect(admitInView({}, NOW, perMinutePolicy(5))).toBeUndefined();
  });
});

describe('unchargedUs', () => {
  test('is what the view holds past the shared TAT, counted from now', () => {
    expect(unchargedUs({}, NOW)).toBe(0);
    expect(unchargedUs({ viewTatUs: NOW + 3 * T }, NOW)).toBe(3 * T);
    expect(unchargedUs({ sharedTatUs: NOW + 2 * T, viewTatUs: NOW + 5 * T }, NOW)).toBe(3 * T);
    expect(unchargedUs({ sharedTatUs: NOW - 9 * T, viewTatUs: NOW + T }, NOW)).toBe(T);
    expect(unchargedUs({ viewTatUs: NOW - T }, NOW)).toBe(0);
  });

  test('for one container, the view and its writes decide every request exactly as the rule written one by one (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 * T }), { minLength: 1, maxLength: 60 }), (gaps) => {
        let now = NOW;
        let exact: number | undefined;
        const view: RateView = {};
        for (const gap of gaps) {
          now += gap;
          const rule = decideRate({ tatUs: exact }, now, policy);
          if (rule.admitted) exact = rule.tatUs;
          const local = admitInView(view, now, policy);
          if (local !== undefined) {
            view.viewTatUs = local;
            expect(rule.admitted).toBe(true);
            continue;
          }
          // The write: the shared TAT moved by the uncharged part and this request, when the rule admits it.
          const owed = unchargedUs(view, now);
          const written = decideRate({ tatUs: owed > 0 ? Math.max(view.sharedTatUs ?? 0, now) + owed : view.sharedTatUs }, now, policy);
          expect(written.admitted).toBe(rule.admitted);
          if (written.admitted) {
            view.sharedTatUs = written.tatUs;
            view.viewTatUs = undefined;
          } else view.viewTatUs = Math.max(view.sharedTatUs ?? 0, now) + owed;
          expect(Math.max(view.viewTatUs ?? 0, view.sharedTatUs ?? 0, now)).toBe(Math.max(exact ?? 0, now));
        }
      }),
    );
  });
});
