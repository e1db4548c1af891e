/**
 * The tests that drive real browsers (test/browser: Chromium, Firefox ESR, WebKitGTK), two files at once.
 * `npm test` runs them after the rest: a browser closing a tab sends its last beacons while the page's
 * process gets the CPU, and a machine saturated by other test files can starve it. Two browser files
 * beside each other leave it that CPU: the whole config passed so beside a full run of the main config,
 * at a load average of 18 to 22 (docs/development.md#where-the-time-goes).
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'browsers',
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 2,
};
