/**
 * The HTTP tests of the contacts and ingest APIs, run against the Lambda
 * assets that `cdk synth` bundles (the files `cdk deploy` uploads), served from a plain
 * Node process with no access to the project's node_modules. Part of
 * `npm test`. Only files that drive the API purely over HTTP belong here;
 * files that inject faults or a clock into the handler need it in-process.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'bundled asset',
  testMatch: [
    '<rootDir>/test/api/{auth,company,read,upsert,routing-and-precedence,local-adapter,ingest}.test.ts',
    // The browser tests that reach the API through startLocalApi(): the others serve something else, or the handler in-process.
    '<rootDir>/test/browser/ingest-browser.test.ts',
    '<rootDir>/test/bundle/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/'],
  globalSetup: '<rootDir>/test/support/bundle-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/bundle-global-teardown.ts',
};
