/**
 * `npm test`'s first jest run: the files of jest.config.js and, as a second
 * project on the same two workers, the bundled-asset files of
 * jest.bundle.config.js. One run, one DynamoDB Local and one tally for both:
 * the bundled files no longer wait for the other files to end and then start
 * a run of their own (docs/development.md#where-the-time-goes). The browser
 * files still run after it (jest.browser.config.js).
 * @type {import('jest').Config}
 */
const { maxWorkers, testTimeout, globalSetup, ...main } = require('./jest.config');
const { bundledFiles } = require('./jest.bundle.config');

// Both projects end with the one teardown: it stops the run's store and checks that nothing of either is left running.
const globalTeardown = '<rootDir>/test/support/bundle-global-teardown.ts';

module.exports = {
  maxWorkers,
  testTimeout,
  projects: [
    { ...main, rootDir: __dirname, displayName: 'sources', globalSetup, globalTeardown },
    {
      ...main,
      ...bundledFiles,
      rootDir: __dirname,
      // After the sources project's setup (the run's DynamoDB Local): only the bundled API's folder.
      globalSetup: '<rootDir>/test/support/bundled-project-setup.ts',
      globalTeardown,
    },
  ],
};
