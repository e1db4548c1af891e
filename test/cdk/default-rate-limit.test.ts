import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OUTPUTS } from '../../lib/outputs';
import { runScript } from '../support/commands';
import { endpoint, newFactoryId } from '../support/local-api';

/**
 * The defaultRateLimit option end to end: the stack's DefaultRateLimit
 * output is what `keys --stack <name> create` gives a key without
 * --rate-limit. CloudFormation is a stand-in answering DescribeStacks with
 * the outputs; DynamoDB is the run's DynamoDB Local, both reached through the
 * SDK's per-service endpoint variables, exactly as the command runs on AWS.
 */
let server: Server;
let outputs: Record<string, string>;

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const members = Object.entries(outputs)
        .map(([key, value]) => `<member><OutputKey>${key}</OutputKey><OutputValue>${value}</OutputValue></member>`)
        .join('');
      response.writeHead(200, { 'content-type': 'text/xml' });
      response.end(
        `<DescribeStacksResponse xmlns="http://cloudformation.amazonaws.com/doc/2010-05-15/"><DescribeStacksResult><Stacks><member>` +
          `<StackName>ContactsTest</StackName><Outputs>${members}</Outputs></member></Stacks></DescribeStacksResult>` +
          `<ResponseMetadata><RequestId>test</RequestId></ResponseMetadata></DescribeStacksResponse>`,
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function keysOnStack(...args: string[]) {
  return runScript('keys', ['--stack', 'ContactsTest', '--region', 'eu-west-1', ...args], {
    AWS_ENDPOINT_URL_CLOUDFORMATION: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    AWS_ENDPOINT_URL_DYNAMODB: endpoint(),
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    DYNAMODB_ENDPOINT: '',
  });
}

const stackOutputs = (extra: Record<string, string>) => ({
  [OUTPUTS.contactsTable]: process.env.CONTACTS_TABLE_NAME!,
  [OUTPUTS.keysTable]: process.env.KEYS_TABLE_NAME!,
  [OUTPUTS.referenceTable]: process.env.REFERENCE_TABLE_NAME ?? 'unused',
  ...extra,
});

test("keys --stack create without --rate-limit gives the key the stack's defaultRateLimit", async () => {
  outputs = stackOutputs({ [OUTPUTS.defaultRateLimit]: '600' });
  const result = await keysOnStack('create', '--factory', newFactoryId('stackdefault'));
  expect(result.stderr).toBe('');
  expect(JSON.parse(result.stdout).rateLimit).toBe(600);
}, 60_000);

test('--rate-limit still wins over the stack default', async () => {
  outputs = stackOutputs({ [OUTPUTS.defaultRateLimit]: '600' });
  const result = await keysOnStack('create', '--factory', newFactoryId('stackdefault'), '--rate-limit', '90');
  expect(JSON.parse(result.stdout).rateLimit).toBe(90);
}, 60_000);

test('a stack deployed before the option (no output) keeps the built-in 30,000', async () => {
  outputs = stackOutputs({});
  const result = await keysOnStack('create', '--factory', newFactoryId('stackdefault'));
  expect(JSON.parse(result.stdout).rateLimit).toBe(30_000);
}, 60_000);

test('a malformed output is a one-line error with exit code 1, not a guess', async () => {
  outputs = stackOutputs({ [OUTPUTS.defaultRateLimit]: 'lots' });
  const result = await keysOnStack('create', '--factory', newFactoryId('stackdefault'));
  expect(result.status).toBe(1);
  expect(result.stdout).toBe('');
  expect(result.stderr.trim()).toBe('error: stack "ContactsTest": the DefaultRateLimit output is "lots", not a number of requests per minute');
}, 60_000);
