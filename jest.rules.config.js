/**
 * The rule tests alone (test/rules): the domain's rules on in-memory ports,
 * no DynamoDB Local, in seconds. `npm run test:rules`; `npm test` runs them too.
 * @type {import('jest').Config}
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'rules',
  roots: ['<rootDir>/test/rules'],
  globalSetup: undefined,
  globalTeardown: undefined,
};
