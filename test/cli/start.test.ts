import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { freePort } from '../../scripts/lib/ports';
import { dynamoDbLocalPids, isAlive, runScript, startScript } from '../support/commands';
import { send } from '../support/http';

/**
 * `npm start` as a user runs it: the embedded DynamoDB Local on its own
 * port, data in a folder of its own (CONTACTS_DATA_DIR) so the developer's
 * .data/ is never touched.
 */
let dataDir: string;
let env: NodeJS.ProcessEnv;
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
  env = {
    DYNAMODB_ENDPOINT: '',
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    CONTACTS_DATA_DIR: dataDir,
  };
});
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

const URL_LINE = /Contacts API listening on (http:\/\/localhost:\d+)/;

async function start() {
  const run = startScript('start', env, URL_LINE);
  const [, baseUrl] = await run.started;
  return { ...run, baseUrl: baseUrl as string };
}

describe('npm start', () => {
  test('serves the API, shares its store with the keys command, keeps data across a restart, stops cleanly', async () => {
    // First run: a key from the keys command (reaching the running store with no flags), one contact.
    const first = await start();
    expect(first.baseUrl).toBe(`http://localhost:${env.PORT}`);
    const javaPids = dynamoDbLocalPids(dataDir);
    expect(javaPids).toHaveLength(1);
    const issued = await runScript('keys', ['create', '--factory', 'fac_start'], env);
    expect(issued.status).toBe(0);
    const { key } = JSON.parse(issued.stdout);
    const auth = { Authorization: `Bearer ${key}` };
    const created = await send(first.baseUrl, 'POST', '/api/v1/contacts', { headers: auth, body: { email: 'persist@example.com' } });
    expect(created.status).toBe(201);

    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(javaPids.filter(isAlive)).toEqual([]);

    // Second run on the same data: the key and the contact are still there.
    const second = await start();
    try {
      const read = await send(second.baseUrl, 'GET', `/api/v1/contacts/${created.json.contact.id}`, { headers: auth });
      expect(read.status).toBe(200);
      expect(read.json.contact.email).toBe('persist@example.com');
    } finally {
      const pids = dynamoDbLocalPids(dataDir);
      second.child.kill('SIGINT');
      expect(await second.exited).toBe(0);
      expect(pids.filter(isAlive)).toEqual([]);
    }
  }, 120_000);

  test('the keys command starts the embedded store itself when npm start is not running', async () => {
    const issued = await runScript('keys', ['create', '--factory', 'fac_offline'], env);
    expect(issued.status).toBe(0);
    expect(dynamoDbLocalPids(dataDir)).toEqual([]);
    const listed = await runScript('keys', ['list', '--factory', 'fac_offline'], env);
    expect(JSON.parse(listed.stdout)).toHaveLength(1);
  }, 60_000);

  test('a busy port is a one-line error, exit code 1', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runScript('start', [], { ...env, PORT: String(port) });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(
        `error: port ${port} is already in use: stop what listens there, or pick another port (PORT=${port + 1} npm start)`,
      );
    } finally {
      blocker.close();
    }
  });

  test('a busy DynamoDB Local port is a one-line error that names the way out', async () => {
    const blocker = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => blocker.listen(port, '127.0.0.1', resolve));
    try {
      const result = await runScript('start', [], { ...env, DYNAMODB_PORT: String(port) });
      expect(result.status).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(new RegExp(`^error: port ${port} \\(DynamoDB Local\\) is already in use: .*DYNAMODB_PORT`))]);
    } finally {
      blocker.close();
    }
  });

  test('without java it is a one-line error that says how to install it', async () => {
    // PATH with node only: no java to be found.
    const result = await runScript('start', [], { ...env, PATH: dirname(process.execPath) === '/usr/bin' ? '/nonexistent' : dirname(process.execPath) });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: Java 17\+ is needed .*openjdk-17-jre-headless/)]);
  });

  test('a bad PORT value is a one-line error', async () => {
    const result = await runScript('start', [], { ...env, PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('error: PORT=eighty is not a port number (1-65535)');
  });
});
