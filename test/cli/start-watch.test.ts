import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dynamoDbLocalPids, isAlive, runScript, serverEnv, startServer } from '../support/commands';
import { send } from '../support/http';
import { until } from '../support/until';

/**
 * `npm start` watches its embedded DynamoDB Local: a kill -9 of the java
 * process is said on the console at once, DynamoDB Local starts again on the
 * same data, and what was acknowledged before reads back after.
 */
let serversDir: string;
let env: Awaited<ReturnType<typeof serverEnv>>;
beforeEach(async () => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  env = await serverEnv(serversDir);
});
afterEach(() => {
  for (const pid of dynamoDbLocalPids(env.CONTACTS_DATA_DIR)) process.kill(pid, 'SIGKILL');
  rmSync(env.CONTACTS_DATA_DIR, { recursive: true, force: true });
  rmSync(serversDir, { recursive: true, force: true });
});

const N = 60;

test('a kill -9 of its DynamoDB Local is said at once, it is restarted on the same data, and every acknowledged upsert reads back', async () => {
  const server = await startServer(env);
  try {
    const issued = await runScript('keys', ['create', '--factory', 'fac_watch'], env);
    expect(issued.status).toBe(0);
    const headers = { Authorization: `Bearer ${(JSON.parse(issued.stdout) as { key: string }).key}` };
    const ids: string[] = [];
    for (let batch = 0; batch < N; batch += 10) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          send(server.baseUrl, 'POST', '/api/v1/contacts', { headers, body: { email: `person${batch + i}@watch.example`, name: `Person ${batch + i}` } }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        ids.push(answer.json.contact.id);
      }
    }

    const [java] = dynamoDbLocalPids(env.CONTACTS_DATA_DIR);
    expect(java).toBeDefined();
    process.kill(java as number, 'SIGKILL');

    // Said on the console: what died and how.
    const died = new RegExp(`DynamoDB Local \\(pid ${java}\\) exited unexpectedly \\(signal SIGKILL\\).*restarting it on the same data`);
    await until('the console line saying DynamoDB Local exited', () => died.test(server.output.stdout), 10_000);
    const back = await until('DynamoDB Local to be back', () => /DynamoDB Local is back \(pid (\d+)/.exec(server.output.stdout)?.[1], 90_000);
    // The new one runs on the same data folder, and the store lock names it (a kill -9 of npm start then leaves no orphan).
    expect(dynamoDbLocalPids(env.CONTACTS_DATA_DIR)).toEqual([Number(back)]);
    expect(JSON.parse(readFileSync(join(env.CONTACTS_DATA_DIR, 'store.json'), 'utf8'))).toMatchObject({ javaPid: Number(back) });

    await until(
      'the API to answer 200 again',
      async () => (await send(server.baseUrl, 'GET', `/api/v1/contacts/${ids[0]}`, { headers })).status === 200,
      30_000,
    );
    const reads = await Promise.all(ids.map((id) => send(server.baseUrl, 'GET', `/api/v1/contacts/${id}`, { headers })));
    expect(reads.map((read) => read.status)).toEqual(ids.map(() => 200));
    expect(new Set(reads.map((read) => read.json.contact.email)).size).toBe(N);

    // And it still stops cleanly, taking the restarted DynamoDB Local with it.
    expect(await server.stop()).toBe(0);
    expect(isAlive(Number(back))).toBe(false);
  } finally {
    await server.stop();
  }
}, 240_000);
