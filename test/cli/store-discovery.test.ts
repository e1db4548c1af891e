import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../local/harness/ports';
import { dynamoDbLocalPids, runScript, serverEnv, startServer } from '../support/commands';
import { send } from '../support/http';

/**
 * Which store `keys` works on when `npm start` runs on a data folder of its
 * own (CONTACTS_DATA_DIR): the command, run from another shell without that
 * variable, must find the running server's store, or say plainly what it
 * did. The file's servers register in a folder of their own; one server runs
 * for the whole file (each test only looks at it: a start is most of a
 * test's time), and the test that needs a second starts and stops it itself.
 */
let serversDir: string;
let folders: string[];
let running: Awaited<ReturnType<typeof startOne>>;
let blocker: Server;
let blockedPort: number;
beforeAll(async () => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  folders = [serversDir];
  // DYNAMODB_PORT for the commands: were one to start its own DynamoDB Local on
  // the default .data/dynamodb, it fails on this busy port instead of touching it.
  blocker = createServer();
  blockedPort = await freePort();
  await new Promise<void>((resolve) => blocker.listen(blockedPort, resolve));
  running = await startOne();
}, 120_000);
afterAll(async () => {
  await running?.stop();
  blocker.close();
  for (const folder of folders) {
    for (const pid of dynamoDbLocalPids(folder)) process.kill(pid, 'SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
});

async function startOne() {
  const env = await serverEnv(serversDir);
  folders.push(env.CONTACTS_DATA_DIR);
  const server = await startServer(env);
  return { ...server, env };
}

/** `keys` from a second shell: no CONTACTS_DATA_DIR, no DYNAMODB_ENDPOINT. */
const keysElsewhere = (args: string[], env: NodeJS.ProcessEnv = {}) =>
  runScript('keys', args, {
    DYNAMODB_ENDPOINT: '',
    CONTACTS_DATA_DIR: '',
    DYNAMODB_PORT: String(blockedPort),
    CONTACTS_SERVERS_DIR: serversDir,
    ...env,
  });

const works = async (baseUrl: string, key: string) =>
  (await send(baseUrl, 'POST', '/api/v1/contacts', { headers: { Authorization: `Bearer ${key}` }, body: { email: 'found@example.com' } })).status;

describe('the keys command, beside a running npm start', () => {
  test('uses the store of the one npm start running, whatever its data folder, and says so on stderr', async () => {
    const server = running;
    const issued = await keysElsewhere(['create', '--factory', 'fac_found']);
    expect(issued.stderr.trim()).toBe(
      `using the store of npm start (pid ${server.child.pid}, API ${server.baseUrl}, data in ${server.env.CONTACTS_DATA_DIR}, DynamoDB http://localhost:${server.env.DYNAMODB_PORT})`,
    );
    expect(issued.status).toBe(0);
    expect(await works(server.baseUrl, JSON.parse(issued.stdout).key)).toBe(201);
  }, 120_000);

  test('refuses with one line naming each server and how to choose when several serve different stores', async () => {
    const first = running;
    const second = await startOne();
    // Stopped before the next test, which expects one server again; a failed stop fails this test.
    try {
      await secondServerChecks(first, second);
    } finally {
      expect(await second.stop()).toBe(0);
    }
  }, 180_000);

  async function secondServerChecks(first: typeof running, second: typeof running) {
    const refused = await keysElsewhere(['create', '--factory', 'fac_which']);
    expect(refused.status).toBe(1);
    expect(refused.stdout).toBe('');
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^error: 2 npm start servers run on different stores: .*\. Choose one with CONTACTS_DATA_DIR=<its data folder> or DYNAMODB_ENDPOINT=<its DynamoDB>$/,
    );
    for (const server of [first, second]) {
      expect(lines[0]).toContain(`npm start (pid ${server.child.pid}, API ${server.baseUrl}, data in ${server.env.CONTACTS_DATA_DIR}`);
    }
    // The way out it names: CONTACTS_DATA_DIR picks the second server's store.
    const chosen = await keysElsewhere(['create', '--factory', 'fac_which'], { CONTACTS_DATA_DIR: second.env.CONTACTS_DATA_DIR });
    expect(chosen.status).toBe(0);
    expect(await works(second.baseUrl, JSON.parse(chosen.stdout).key)).toBe(201);
  }

  test('on a CONTACTS_DATA_DIR no server runs on, says which store it used and that another server runs', async () => {
    const server = running;
    const own = mkdtempSync(join(tmpdir(), 'contacts-data-'));
    folders.push(own);
    const issued = await keysElsewhere(['create', '--factory', 'fac_own'], { CONTACTS_DATA_DIR: own, DYNAMODB_PORT: String(await freePort()) });
    expect(issued.status).toBe(0);
    expect(issued.stderr.trim()).toBe(
      `no server runs on ${own}: this command started DynamoDB Local on it for itself, while npm start (pid ${server.child.pid}, API ${server.baseUrl}, data in ${server.env.CONTACTS_DATA_DIR}, DynamoDB http://localhost:${server.env.DYNAMODB_PORT}) serves another store`,
    );
    // And it says the truth: that key is not the running server's.
    expect(await works(server.baseUrl, JSON.parse(issued.stdout).key)).toBe(401);
  }, 180_000);
});
