/**
 * The HTTP tests of the contacts and ingest APIs, run against the Lambda
 * assets that `cdk synth` bundles (the files `cdk deploy` uploads), served from a plain
 * Node process with no access to the project's node_modules. `npm test` runs
 * them as the second project of its first jest run (jest.npm-test.config.js);
 * this config runs them alone (`npm run test:bundle`, and on Node.js 22:
 * `npm run test:node22`). Only files that drive the API purely over HTTP
 * belong here; files that inject faults or a clock into the handler need it in-process.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

/** The bundled files and their setup file: what jest.npm-test.config.js reuses as a project (with its own global setup). */
const bundledFiles = {
  displayName: 'bundled asset',
  testMatch: [
    '<rootDir>/test/api/{auth,company,read,upsert,routing-and-precedence,local-adapter,ingest}.test.ts',
    // The browser tests that reach the API through startLocalApi(): the others serve something else, or the handler in-process.
    '<rootDir>/test/browser/ingest-browser.test.ts',
    '<rootDir>/test/bundle/*.test.ts',
  ],
  testPathIgnorePatterns: ['/node_modules/'],
  // startLocalApi() serves the folder the global setup prepared (test/support/bundled-env.ts).
  setupFiles: [...base.setupFiles, '<rootDir>/test/support/bundled-env.ts'],
};

module.exports = {
  ...base,
  ...bundledFiles,
  // The run's DynamoDB Local, S3 store and tally, then the bundled API's folder.
  globalSetup: '<rootDir>/test/support/bundle-global-setup.ts',
  globalTeardown: '<rootDir>/test/support/bundle-global-teardown.ts',
};
// Not enumerable: jest would warn of an unknown option when this config runs alone.
Object.defineProperty(module.exports, 'bundledFiles', { value: bundledFiles });
