import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { issueIdOf } from '../../lambda/ingest/grouping/fingerprint';
import { createDynamoClient, documentClientOf, LOCAL_DYNAMO_CONFIG } from '../../lambda/infrastructure/store/dynamo-client';
import { issueKey } from '../../lambda/infrastructure/store/reports/issue-items';
import { KeyAdmin } from '../../lambda/infrastructure/store/keys/key-admin';
import { LOCAL_TABLE_NAMES } from '../../lambda/infrastructure/store/schema';
import { dynamoDbLocalPids, serverEnv, startServer } from '../support/commands';
import { send } from '../support/http';

/**
 * `npm start` runs the tally on DynamoDB Local's stream, as the stack runs it
 * on the deployed table's (docs/report-issues.md#exact-counts): a burst of
 * events is counted into its issue within 10 s of the burst's last answer,
 * exactly, and the count survives a restart without being counted again.
 */
const SITE = 'https://shop.example.com';
const BOUND_MS = 10_000;
let serversDir: string;
beforeAll(() => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
});
afterAll(() => rmSync(serversDir, { recursive: true, force: true }));

test('a burst of 200 events of one error is counted into its issue within 10 s of its last answer, and once across a restart', async () => {
  const env = await serverEnv(serversDir);
  let server = await startServer(env);
  const client = createDynamoClient({ ...LOCAL_DYNAMO_CONFIG, endpoint: `http://localhost:${env.DYNAMODB_PORT}` });
  try {
    const doc = documentClientOf(client);
    const factoryId = `fac_tally_${randomUUID().slice(0, 8)}`;
    const { key } = await new KeyAdmin(doc, LOCAL_TABLE_NAMES.keys).create({ factoryId, type: 'publishable', origins: [SITE], rateLimit: 100_000 });
    const issueId = issueIdOf(factoryId, ['custom', 'burst']);
    const countOf = async () =>
      (await doc.send(new GetCommand({ TableName: LOCAL_TABLE_NAMES.reports, Key: { pk: issueKey(factoryId, issueId) }, ConsistentRead: true }))).Item?.count;
    const post = (address: string) =>
      send(server.baseUrl, 'POST', '/ingest/v1/events', {
        headers: { Origin: SITE, Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ events: Array.from({ length: 5 }, () => ({ eventId: randomUUID(), message: 'boom', fingerprint: ['burst'] })) }),
        localAddress: address,
      });
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => post(`127.7.${i}.1`)));
    expect(answers.map((res) => res.status)).toEqual(Array(40).fill(202));
    const lastAnswer = Date.now();
    while ((await countOf()) !== 200) {
      if (Date.now() - lastAnswer > BOUND_MS) throw new Error(`the count was ${await countOf()} of 200 ${BOUND_MS / 1000} s after the burst's last answer`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // Stopped and started again on the same data: the stream is read on from where the tally left off, nothing counted twice.
    await server.stop();
    server = await startServer(env);
    await post('127.7.200.1');
    const restarted = Date.now();
    while ((await countOf()) !== 205) {
      if (Date.now() - restarted > BOUND_MS) throw new Error(`the count was ${await countOf()} of 205 after the restart`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } finally {
    client.destroy();
    await server.stop();
    for (const pid of dynamoDbLocalPids(env.CONTACTS_DATA_DIR)) process.kill(pid, 'SIGKILL');
    rmSync(env.CONTACTS_DATA_DIR, { recursive: true, force: true });
  }
}, 240_000);
