/**
 * `npm test`'s one jest run, on three workers: three projects that share the
 * run's DynamoDB Local, S3 store and tally.
 * - sources: the files of jest.config.js;
 * - bundled asset: the HTTP files again on the synthesized Lambda assets (jest.bundle.config.js);
 * - browsers: the files that drive real browsers (jest.browser.config.js).
 * test/support/sequencer.js hands out the browser files after all the others,
 * so they run beside each other as when they had a run of their own, and no
 * run waits for another to end and start up (docs/development.md#where-the-time-goes).
 * Three workers on two cores, and at most two browser files at once. A file spends part of its time waiting on what
 * it drives (DynamoDB Local, an `npm start`, a tab), and a third file fills those waits: the files before the browser
 * files ended at 220 s instead of 233 s. But three browser files at once starve a closing tab (in one fresh-clone
 * run of seven, Chromium lost the close-time beacons of capture.test.ts's two-beacons case), so a browser file
 * waits for one of two slots (test/support/browser-slots.ts; docs/development.md#where-the-time-goes).
 * @type {import('jest').Config}
 */
// maxWorkers is the run's, not a project's: kept out of the settings the projects share.
const { maxWorkers: _runOption, testTimeout, globalSetup, ...main } = require('./jest.config');
const { bundledFiles } = require('./jest.bundle.config');
const { browserFiles } = require('./jest.browser.config');

// Every project ends with the one teardown: it stops the run's store and checks that nothing of any is left running.
const globalTeardown = '<rootDir>/test/support/bundle-global-teardown.ts';
// A file under test/browser/ (the browsers project's, and the bundled project's ingest-browser) waits for a browser slot.
const setupFilesAfterEnv = ['<rootDir>/test/support/browser-slot-setup.ts'];

module.exports = {
  maxWorkers: 3,
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
      setupFilesAfterEnv,
    },
    { ...main, ...browserFiles, rootDir: __dirname, globalSetup, globalTeardown, setupFilesAfterEnv },
  ],
};
