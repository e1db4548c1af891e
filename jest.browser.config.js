/**
 * The tests that drive real browsers (test/browser: Chromium, Firefox ESR, WebKitGTK), one file at a time.
 * `npm test` runs them after the rest: a browser closing a tab sends its last beacons while the page's
 * process gets the CPU, and a machine saturated by other test files can starve it
 * (docs/development.md#where-the-time-goes).
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'browsers',
  roots: ['<rootDir>/test/browser'],
  testPathIgnorePatterns: ['/node_modules/'],
  maxWorkers: 1,
};
