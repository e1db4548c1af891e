import { createDynamoClient, DEFAULT_DYNAMO_CONFIG, documentClientOf } from '../../lambda/infrastructure/store/dynamo-client';
import { StorageThrottledError } from '../../lambda/kernel/errors';
import { hashSecret } from '../../lambda/kernel/api-key';
import { DynamoIngestKeys } from '../../lambda/infrastructure/store/keys/dynamo-ingest-keys';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { FaultInjector, stopFaultServers } from '../support/faults';
import { endpoint, newFactoryId, tables } from '../support/local-api';

/**
 * A container whose writes of the key's item were throttled (the session
 * storm's first seconds) must admit again at its first write that lands, not
 * keep refusing: no state of the lease is left behind by a failed write.
 * DynamoDB Local, throttling injected on the real client, the clock stepped.
 */
const client = createDynamoClient({ ...DEFAULT_DYNAMO_CONFIG, endpoint: endpoint() });
const faults = new FaultInjector(client, DEFAULT_DYNAMO_CONFIG.requestTimeoutMs);
afterAll(async () => {
  client.destroy();
  await stopFaultServers();
});

test("a container whose key lease writes were throttled admits the key's requests at the first write that lands", async () => {
  const created = await new KeyAdmin(documentClientOf(client), tables.keys).create({
    factoryId: newFactoryId('lease'),
    type: 'publishable',
    origins: ['https://a.com'],
    rateLimit: 1_000_000,
  });
  const keys = new DynamoIngestKeys(documentClientOf(client), tables.keys);
  const keyHash = hashSecret(created.key);
  let now = Date.now();
  const request = async () => {
    const check = await keys.authenticate(keyHash, now);
    if (check.outcome !== 'active') throw new Error(check.outcome);
    return keys.admitRequest(check.key, keyHash, now);
  };
  // Leases grow with the traffic: requests 5 ms apart for a second.
  for (let i = 0; i < 200; i += 1, now += 5) expect(await request()).toEqual({ admitted: true });
  // The item throttled for 7 attempts (every SDK retry is one): past the lease, the requests meanwhile are refused as throttled.
  now += 2_000;
  const throttled = faults.inject({ call: 'authorize', when: 'before', fault: 'throttling', times: 7 });
  const answers: string[] = [];
  for (let i = 0; i < 10; i += 1, now += 5) {
    answers.push(
      await request().then(
        (admission) => (admission.admitted ? 'admitted' : 'limited'),
        (error: unknown) => (error instanceof StorageThrottledError ? 'throttled' : String(error)),
      ),
    );
  }
  expect(throttled.hits).toBe(7);
  const firstAdmitted = answers.indexOf('admitted');
  expect(firstAdmitted).toBeGreaterThan(0);
  expect(answers.slice(0, firstAdmitted).every((answer) => answer === 'throttled')).toBe(true);
  expect(answers.slice(firstAdmitted)).toEqual(Array(10 - firstAdmitted).fill('admitted'));
  // And a second later, with a new lease, still admitted.
  now += 1_500;
  expect(await request()).toEqual({ admitted: true });
});
