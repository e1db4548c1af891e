/**
 * The inner loop (`npm run test:quick`, well under a minute): the domain's
 * rules on in-memory ports and the in-memory twins, the pure modules (their
 * mirrored tests under test/lambda and test/browser-sdk/src, the client's rules), and the
 * control room's pages on fixed answers. No DynamoDB Local, no browser, no
 * child process. `npm test` runs all of these and everything else.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'quick',
  testMatch: [
    '<rootDir>/test/rules/**/*.test.ts',
    // The mirrored tests of the pure modules (test/lambda/<path of the module>.test.ts).
    '<rootDir>/test/lambda/**/*.test.ts',
    '<rootDir>/test/client/{rate-limit,retry,same-rules}.test.ts',
    '<rootDir>/test/browser-sdk/src/**/*.test.ts',
    '<rootDir>/test/semantics/model.test.ts',
    '<rootDir>/test/control-room/{pages,issue-pages,export-stream}.test.ts',
  ],
  globalSetup: undefined,
  globalTeardown: undefined,
};
