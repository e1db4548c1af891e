/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  // test/bundle runs under jest.bundle.config.js only (it needs the synthesized asset).
  // test/browser runs under jest.browser.config.js, one file at a time, after the rest.
  testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/bundle/', '<rootDir>/test/browser/'],
  // swc strips types only; `npm test` runs tsc --noEmit first for the type check.
  transform: {
    '^.+\\.(t|j)s$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  // @middy/* ships ESM only: let swc turn it into CommonJS for jest.
  transformIgnorePatterns: ['/node_modules/(?!@middy/)'],
  // The client's sources import each other as './<name>.js' (what its published ESM declarations need): the .ts file.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  // Two test files at once, one per core. Each file keeps to its own factory ids, and whatever reads the run's one
  // stream or alerts table takes its own file's records only (test/alerts/two-containers, test/reliability/storm):
  // docs/development.md#where-the-time-goes.
  maxWorkers: 2,
  // One DynamoDB Local for the whole run; each test file uses its own factory ids.
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  setupFiles: ['<rootDir>/test/support/env.ts'],
  // A test's own deadline, not a claim about speed: with two files at once on a busy two-core machine, 30 s was met
  // by waits on DynamoDB Local alone (docs/development.md#where-the-time-goes).
  testTimeout: 60_000,
};
