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
 * - The other files: jest's own order (files that failed last time first,
 *   then the longest by the durations jest keeps in its cache, else the
 *   largest). A fresh clone has no durations, and file size misjudges the
 *   files that start processes or synthesize: SLOW_FILES puts those first, so
 *   that what is left when the browser files start is small.
 */
const Sequencer = require('@jest/test-sequencer').default;

/** The files that go last: those that drive browsers (jest.browser.config.js's, and the bundled project's ingest-browser). */
const LAST_FOLDER = '/test/browser/';

/**
 * The files of the other projects that took 8 s or more on CI's two-core
 * machine (`npx jest --json`, file times with two at once), longest first.
 * Only the order depends on it: a file missing here runs in jest's order.
 */
const SLOW_FILES = [
  'test/cli/start.test.ts',
  'test/cli/start-tally.test.ts',
  'test/alerts/npm-start.test.ts',
  'test/reliability/storm.test.ts',
  'test/cli/store-discovery.test.ts',
  'test/cdk/nag.test.ts',
  'test/reliability/issue-races.test.ts',
  'test/cli/control.test.ts',
  'test/rules/ingest-payloads-agree.test.ts',
  'test/reliability/clear-races.test.ts',
  'test/control/issue-list.test.ts',
  'test/cli/start-watch.test.ts',
  'test/cdk/stack.test.ts',
  'test/cli/sourcemaps.test.ts',
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
    const last = ordered.filter(drivesBrowsers);
    let first = ordered.filter((test) => !drivesBrowsers(test));
    // Only where jest knows no durations (Array.prototype.sort is stable: the rest keep jest's order).
    if (first.every((test) => test.duration == null)) first = [...first].sort((a, b) => slowRank(a) - slowRank(b));
    return [...first, ...last];
  }
}

module.exports = BrowsersLastSequencer;
module.exports.LAST_FOLDER = LAST_FOLDER;
module.exports.SLOW_FILES = SLOW_FILES;
