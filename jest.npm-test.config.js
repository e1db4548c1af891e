/**
 * `npm test`'s one jest run, on two workers: three projects that share the
 * run's DynamoDB Local, S3 store and tally.
 * - sources: the files of jest.config.js;
 * - bundled asset: the HTTP files again on the synthesized Lambda assets (jest.bundle.config.js);
 * - browsers: the files that drive real browsers (jest.browser.config.js).
 * test/support/sequencer.js hands out the browser files after all the others,
 * so they run beside each other as when they had a run of their own, and no
 * run waits for another to end and start up (docs/development.md#where-the-time-goes).
 * Two workers, one per core. Three were faster (fresh clones: `npm test` 335 to 359 s, against 356 to 371 s), but
 * a closing tab starves: in two of nine fresh-clone runs with three (one of them limited to two browser files at
 * once), Chromium lost the close-time beacons of capture.test.ts's two-beacons case
 * (docs/development.md#where-the-time-goes). Those lost beacons were, at least in part, the harness's: a Chromium tab
 * was closed by disposing its browser context, which cancels unsent beacons (docs/development.md#a-closed-tab-in-chromium,
 * fixed); three workers are worth measuring again.
 * @type {import('jest').Config}
 */
// maxWorkers is the run's, not a project's: kept out of the settings the projects share.
const { maxWorkers, testTimeout, globalSetup, ...main } = require('./jest.config');
const { bundledFiles } = require('./jest.bundle.config');
const { browserFiles } = require('./jest.browser.config');

// Every project ends with the one teardown: it stops the run's store and checks that nothing of any is left running.
const globalTeardown = '<rootDir>/test/support/bundle-global-teardown.ts';

module.exports = {
  maxWorkers,
  testTimeout,
  testSequencer: '<rootDir>/test/support/sequencer.js',
  projects: [
    { ...main, rootDir: __dirname, displayName: 'sources', globalSetup, globalTeardown },
    {
      ...main,
      ...bundledFiles,
      rootDir: __dirname,
      // Beside the sources project's setup (the run's DynamoDB Local): only the bundled API's folder.
      globalSetup: '<rootDir>/test/support/bundled-project-setup.ts',
      globalTeardown,
    },
    { ...main, ...browserFiles, rootDir: __dirname, globalSetup, globalTeardown },
  ],
};
