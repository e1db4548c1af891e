/**
 * The tests that drive real browsers (test/browser: Chromium, Firefox ESR, WebKitGTK), two files at once.
 * `npm test` runs them as the third project of its one jest run (jest.npm-test.config.js), handed out after
 * every other file (test/support/sequencer.js): a browser closing a tab sends its last beacons while the page's
 * process gets the CPU, and a machine saturated by other test files can starve it. Two browser files
 * beside each other leave it that CPU: the whole config passed so beside a full run of the main config,
 * at a load average of 18 to 22 (docs/development.md#where-the-time-goes). This config runs them alone
 * (`npm run test:browser`).
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

/** The browser files: what jest.npm-test.config.js reuses as a project. */
const browserFiles = {
  displayName: 'browsers',
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
};

module.exports = {
  ...base,
  ...browserFiles,
  maxWorkers: 2,
};
// Not enumerable: jest would warn of an unknown option when this config runs alone.
Object.defineProperty(module.exports, 'browserFiles', { value: browserFiles });
