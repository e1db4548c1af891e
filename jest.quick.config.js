/**
 * The inner loop (`npm run test:quick`, well under a minute): the domain's
 * rules on in-memory ports and the in-memory twins, the pure modules (domain,
 * steps, middleware, the browser SDK's and the client's rules), and the
 * control room's pages on fixed answers. No DynamoDB Local, no browser, no
 * child process. `npm test` runs all of these and everything else.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'quick',
  testMatch: [
    '<rootDir>/test/{rules,domain,steps,middleware,observability}/**/*.test.ts',
    '<rootDir>/test/client/{rate-limit,retry,same-rules}.test.ts',
    '<rootDir>/test/browser-sdk/{backoff,batch,filters,token-bucket}.test.ts',
    '<rootDir>/test/control/units.test.ts',
    '<rootDir>/test/enrichment/units.test.ts',
    '<rootDir>/test/alerts/{signature,triggers.property}.test.ts',
    '<rootDir>/test/semantics/model.test.ts',
    '<rootDir>/test/control-room/{pages,issue-pages,export-stream}.test.ts',
  ],
  globalSetup: undefined,
  globalTeardown: undefined,
};
