// @ts-check
/**
 * The order of `npm test`'s one jest run (jest.npm-test.config.js): the
 * browser files last, the others before them. Plain JavaScript: jest loads a
 * sequencer without its transform.
 *
 * - Browser files last: a tab closing sends its last beacons while its page's
 *   process gets the CPU, and the other files saturate both cores. Started
 *   after every other file has been handed out, they run beside each other
 *   and the end of the last other file, as the separate browser run did
 *   (docs/development.md#where-the-time-goes).
 * - Within each group: jest's own order (files that failed last time first,
 *   then the longest by the durations jest keeps in its cache, else the
 *   largest). A fresh clone has no durations, and file size misjudges the
 *   files that start processes, synthesize or drive browsers: SLOW_FILES puts
 *   those first, so that what is left at the end of each group is short.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** The files that go last: those that drive browsers (jest.browser.config.js's, and the bundled project's ingest-browser). */
const LAST_FOLDER = '/test/browser/';

/**
 * The files that took 8 s or more in a fresh clone's `npm test` (main at 634150e, two workers, the machine otherwise
 * idle; jest's durations as `npm run test-times -- --root <clone>` prints them), longest first. Only the order
 * depends on it: a file missing here runs in jest's order, after the listed ones of its group. Refresh it from
 * `npm run test-times` after a full run when files come or go.
 */
const SLOW_FILES = [
  'test/cli/start.test.ts',
  'test/alerts/npm-start.test.ts',
  'test/reliability/storm.test.ts',
  'test/cli/store-discovery.test.ts',
  'test/cli/start-tally.test.ts',
  'test/cli/start-watch.test.ts',
  'test/cdk/stack.test.ts',
  'test/control/issue-list.test.ts',
  'test/semantics/command.test.ts',
  'test/cli/sourcemaps.test.ts',
  'test/reliability/affected-storm.test.ts',
  'test/control/erasure.test.ts',
  'test/cli/control-room.test.ts',
  'test/cdk/options.test.ts',
  'test/cdk/nag.test.ts',
  'test/fuzz/hostile-input.test.ts',
  'test/sessions/sentry-browser-sessions.test.ts',
  'test/control/feedback-people.test.ts',
  'test/sourcemaps/upload-api.test.ts',
  'test/cli/store-lock.test.ts',
  'test/cli/keys.test.ts',
  'test/cli/control.test.ts',
  'test/reliability/issue-races.test.ts',
  // The browser files, handed out last: the longest first, so that the last to start are short (162, 131, 61, 48,
  // 48, 44, 30, 17, 9 and 6 s in that run).
  'test/browser/sdk/transport.test.ts',
  'test/browser/sdk/capture.test.ts',
  'test/browser/sdk/noise.test.ts',
  'test/browser/control-room-browser.test.ts',
  'test/browser/source-maps.test.ts',
  'test/browser/sentry-source-maps.test.ts',
  'test/browser/sdk/sessions.test.ts',
  'test/browser/sdk/package.test.ts',
  'test/browser/ingest-browser.test.ts',
  'test/browser/chromium-stacks.test.ts',
];

/** @param {import('@jest/test-result').Test} test */
const drivesBrowsers = (test) => test.path.includes(LAST_FOLDER);

/** @param {import('@jest/test-result').Test} test */
const slowRank = (test) => {
  const rank = SLOW_FILES.findIndex((file) => test.path.endsWith(`/${file}`));
  return rank === -1 ? SLOW_FILES.length : rank;
};

class BrowsersLastSequencer extends Sequencer {
  /** @param {import('@jest/test-result').Test[]} tests */
  sort(tests) {
    const ordered = /** @type {import('@jest/test-result').Test[]} */ (super.sort(tests));
    // Only where jest knows no durations (Array.prototype.sort is stable: the rest keep jest's order).
    const bySlowList = (/** @type {import('@jest/test-result').Test[]} */ group) =>
      group.every((test) => test.duration == null) ? [...group].sort((a, b) => slowRank(a) - slowRank(b)) : group;
    return [...bySlowList(ordered.filter((test) => !drivesBrowsers(test))), ...bySlowList(ordered.filter(drivesBrowsers))];
  }
}

module.exports = BrowsersLastSequencer;
module.exports.LAST_FOLDER = LAST_FOLDER;
module.exports.SLOW_FILES = SLOW_FILES;
