import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { freePort, isPortInUse } from '../../local/harness/ports';
import { dynamoDbLocalPids, isAlive, NODE, ROOT, runScript, runScriptInProcess, startScript } from '../support/commands';
import { send } from '../support/http';
import { until } from '../support/until';

/**
 * `npm start` as a user runs it: the embedded DynamoDB Local on its own
 * port, data in a folder of its own (CONTACTS_DATA_DIR) so the developer's
 * .data/ is never touched. The refusals that come before it starts anything
 * (options, PORT, a busy API port, a store already served) run its entry
 * file in this process, as do the keys commands beside a running server
 * (test/cli/keys.test.ts runs keys as a process); whatever starts DynamoDB
 * Local runs as a process.
 */
let dataDir: string;
let env: NodeJS.ProcessEnv;
let serversDir: string;
beforeEach(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
  // Each test's servers register apart: a server of another test file is not this test's business.
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
  env = {
    DYNAMODB_ENDPOINT: '',
    PORT: String(await freePort()),
    DYNAMODB_PORT: String(await freePort()),
    CONTACTS_DATA_DIR: dataDir,
    CONTACTS_SERVERS_DIR: serversDir,
  };
});
afterEach(() => {
  for (const pid of dynamoDbLocalPids(dataDir)) process.kill(pid, 'SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(serversDir, { recursive: true, force: true });
});

const URL_LINE = /Contacts API listening on (http:\/\/localhost:\d+)/;

async function start(extra: NodeJS.ProcessEnv = {}, args: string[] = [], readyWithinMs = 75_000) {
  const run = startScript('start', { ...env, ...extra }, URL_LINE, readyWithinMs, args);
  const [, baseUrl] = await run.started;
  return { ...run, baseUrl: baseUrl as string };
}

/** The JSON log lines a run printed. */
const logLines = (stdout: string): Record<string, unknown>[] =>
  stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('npm start', () => {
  test('serves the API, shares its store with the keys command, keeps data across a restart, stops cleanly', async () => {
    // First run: a key from the keys command (reaching the running store with no flags), one contact.
    const first = await start();
    expect(first.baseUrl).toBe(`http://localhost:${env.PORT}`);
    const javaPids = dynamoDbLocalPids(dataDir);
    expect(javaPids).toHaveLength(1);
    // No DYNAMODB_PORT for the command: it finds the running store by itself.
    const issued = await runScriptInProcess('keys', ['create', '--factory', 'fac_start'], { ...env, DYNAMODB_PORT: '' });
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
  }, 180_000);

  test('stops, and stops DynamoDB Local, when npm itself gets SIGTERM', async () => {
    const npm = spawn('npm', ['start'], { cwd: ROOT, env: { ...process.env, ...env } });
    let output = '';
    npm.stdout.on('data', (chunk) => (output += chunk));
    await until('the URL line', () => URL_LINE.test(output), 60_000);
    const javaPids = dynamoDbLocalPids(dataDir);
    expect(javaPids).toHaveLength(1);
    npm.kill('SIGTERM');
    await until('DynamoDB Local to stop', () => javaPids.every((pid) => !isAlive(pid)), 10_000);
    await until('the API port to be free', async () => !(await isPortInUse(Number(env.PORT))), 10_000);
  }, 90_000);

  test('after a kill -9, the next start stops the DynamoDB Local left behind and starts normally', async () => {
    const first = await start();
    const [orphan] = dynamoDbLocalPids(dataDir);
    first.child.kill('SIGKILL');
    await first.exited;
    expect(isAlive(orphan as number)).toBe(true);
    const second = await start();
    try {
      expect(second.output.stdout).toMatch(/stopped the DynamoDB Local \(pid \d+\) left running by an earlier npm start that was killed/);
      expect(isAlive(orphan as number)).toBe(false);
    } finally {
      second.child.kill('SIGTERM');
      await second.exited;
    }
  }, 180_000);

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
      const result = await runScriptInProcess('start', [], { ...env, PORT: String(port) });
      expect(result.status).toBe(1);
      expect(result.stderr.trim()).toBe(`error: port ${port} is already in use: stop what listens there, or pick another port (PORT=${port + 1} npm start)`);
    } finally {
      blocker.close();
    }
  });

  test('a busy DynamoDB Local port (on IPv4 or IPv6) is a one-line error that names the way out', async () => {
    for (const host of ['127.0.0.1', '::1']) {
      const blocker = createServer();
      const port = await freePort();
      await new Promise<void>((resolve) => blocker.listen(port, host, resolve));
      try {
        const result = await runScript('start', [], { ...env, DYNAMODB_PORT: String(port) });
        expect(result.status).toBe(1);
        expect(result.stderr.trim().split('\n')).toEqual([
          expect.stringMatching(new RegExp(`^error: port ${port} \\(DynamoDB Local\\) is already in use: .*DYNAMODB_PORT`)),
        ]);
      } finally {
        blocker.close();
      }
    }
  });

  test('without java it is a one-line error that says how to install it', async () => {
    // PATH with node only: no java to be found.
    const result = await runScript('start', [], { ...env, PATH: dirname(NODE) === '/usr/bin' ? '/nonexistent' : dirname(NODE) });
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^error: Java 17\+ is needed .*openjdk-17-jre-headless/)]);
  });

  test('a bad PORT value is a one-line error', async () => {
    const result = await runScriptInProcess('start', [], { ...env, PORT: 'eighty' });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toBe('error: PORT=eighty is not a port number (1-65535)');
  });

  test('--bundle serves the Lambda asset that cdk synth builds', async () => {
    // cdk synth first: some 10 s on an idle machine, over 80 s seen on a loaded 2-core one.
    const run = await start({}, ['--bundle'], 300_000);
    try {
      expect(run.output.stdout).toMatch(/serving cdk\.out\/asset\.[0-9a-f]{64}\/index\.mjs \(\d+ bytes\)/);
      const issued = await runScriptInProcess('keys', ['create', '--factory', 'fac_bundle'], env);
      const { key } = JSON.parse(issued.stdout);
      const res = await send(run.baseUrl, 'POST', '/api/v1/contacts', {
        headers: { Authorization: `Bearer ${key}` },
        body: { email: 'bundled@example.com' },
      });
      expect(res.status).toBe(201);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  }, 360_000);

  test('an unknown option is a usage error, exit code 2', async () => {
    const result = await runScriptInProcess('start', ['--bundel'], env);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown option --bundel: did you mean --bundle\?[\s\S]*usage: npm start/);
  });
});

/**
 * The tests that only look at a running `npm start` share one (a start is
 * DynamoDB Local's and the API's start-up: the slowest step of this file). It
 * runs as the strictest of them needs: on a relative CONTACTS_DATA_DIR, with
 * LOG_LEVEL=INFO. Tests that stop, kill or restart a server keep their own.
 */
describe('one running npm start', () => {
  let shared: Awaited<ReturnType<typeof start>>;
  let sharedEnv: NodeJS.ProcessEnv;
  let sharedDir: string;
  let sharedServers: string;
  beforeAll(async () => {
    sharedDir = mkdtempSync(join(tmpdir(), 'contacts-start-'));
    sharedServers = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
    sharedEnv = {
      DYNAMODB_ENDPOINT: '',
      PORT: String(await freePort()),
      DYNAMODB_PORT: String(await freePort()),
      CONTACTS_DATA_DIR: sharedDir,
      CONTACTS_SERVERS_DIR: sharedServers,
    };
    const run = startScript('start', { ...sharedEnv, CONTACTS_DATA_DIR: relative(ROOT, sharedDir), LOG_LEVEL: 'INFO' }, URL_LINE, 75_000);
    const [, baseUrl] = await run.started;
    shared = { ...run, baseUrl: baseUrl as string };
  }, 90_000);
  afterAll(() => {
    if (shared && shared.child.exitCode === null && shared.child.signalCode === null) shared.child.kill('SIGKILL');
    for (const pid of dynamoDbLocalPids(sharedDir)) process.kill(pid, 'SIGKILL');
    rmSync(sharedDir, { recursive: true, force: true });
    rmSync(sharedServers, { recursive: true, force: true });
  });

  test('a relative CONTACTS_DATA_DIR is a folder of the project root, for npm start and its DynamoDB Local', () => {
    expect(existsSync(join(sharedDir, 'store.json'))).toBe(true);
    expect(dynamoDbLocalPids(sharedDir)).toHaveLength(1);
  });

  test('listens on loopback only unless HOST says otherwise, and says so', async () => {
    await until('the listening line', () => shared.output.stdout.includes('listening on 127.0.0.1 only'), 10_000);
    expect(shared.output.stdout).toContain('HOST=0.0.0.0 npm start');
    // Another address of this machine, when it has one, finds nothing listening there.
    const outside = Object.values(networkInterfaces())
      .flat()
      .find((address) => address?.family === 'IPv4' && !address.internal)?.address;
    const port = Number(sharedEnv.PORT);
    const refused = (host: string) =>
      new Promise<string>((resolve) => {
        const socket = connect({ host, port }, () => {
          socket.destroy();
          resolve('connected');
        });
        socket.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
      });
    expect(await refused('127.0.0.1')).toBe('connected');
    if (outside !== undefined) expect(await refused(outside)).toBe('ECONNREFUSED');
  });

  test('applies the request time limits the contacts API reference documents, and says them', () => {
    const readme = readFileSync(join(ROOT, 'docs', 'contacts-api.md'), 'utf8');
    const documented = (row: string) => Number(new RegExp(`^\\| ${row} \\| (\\d+) s`, 'm').exec(readme)?.[1]);
    const said = /the request headers must arrive within (\d+) s and the whole request within (\d+) s, or the answer is 408/.exec(shared.output.stdout);
    expect(said?.slice(1).map(Number)).toEqual([documented('request headers, time to send'), documented('whole request, time to send')]);
  });

  test('a second npm start on the same data says who serves it, and changes nothing', async () => {
    const result = await runScriptInProcess('start', [], { ...sharedEnv, PORT: String(await freePort()), DYNAMODB_PORT: String(await freePort()) });
    expect(result.status).toBe(1);
    expect(result.stderr.trim()).toMatch(/^error: the local store is already served by npm start \(pid \d+, http:\/\/localhost:\d+\): stop it first$/);
    expect((await send(shared.baseUrl, 'GET', '/api/v1/contacts')).status).toBe(401);
  }, 60_000);

  test("prints one JSON log line per request, with the response's X-Request-Id and never the key", async () => {
    const issued = await runScriptInProcess('keys', ['create', '--factory', 'fac_logs'], sharedEnv);
    const { key } = JSON.parse(issued.stdout);
    // The key where a careless caller might also put it: query string, another header, a body field.
    const upsert = await send(shared.baseUrl, 'POST', `/api/v1/contacts?api_key=${key}`, {
      headers: { Authorization: `Bearer ${key}`, 'X-Api-Key': key },
      body: { email: 'logged@example.com', name: key },
    });
    const unknown = await send(shared.baseUrl, 'GET', `/api/v1/contacts/${key}`, { headers: { Authorization: `Bearer ${key}x` } });
    expect([upsert.status, unknown.status]).toEqual([201, 401]);
    const ids = [upsert, unknown].map((res) => String(res.headers['x-request-id']));
    const linesOf = () => logLines(shared.output.stdout + shared.output.stderr).filter((line) => ids.includes(String(line.requestId)));
    await until("the two requests' log lines", () => linesOf().length >= 2, 10_000);
    const lines = linesOf();
    expect(lines.find((line) => line.requestId === ids[0])).toMatchObject({
      message: 'request',
      route: 'POST /api/v1/contacts',
      status: 201,
      factoryId: 'fac_logs',
      dynamoCalls: 2,
    });
    expect(lines.find((line) => line.requestId === ids[1])).toMatchObject({ status: 401, dynamoCalls: 1 });
    expect(shared.output.stdout + shared.output.stderr).not.toContain(key.slice(5));
  }, 60_000);

  // Last: the shared server stops as the ones above did, each on its own, after its test.
  test('stops cleanly on SIGTERM, and its DynamoDB Local with it', async () => {
    const pids = dynamoDbLocalPids(sharedDir);
    shared.child.kill('SIGTERM');
    expect(await shared.exited).toBe(0);
    expect(pids.filter(isAlive)).toEqual([]);
  }, 60_000);
});
