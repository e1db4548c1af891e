import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isRunning, waitUntilGone } from '../../local/harness/processes';
import { liveStore } from '../../local/harness/store-lock';
import { dynamoDbLocalPids, serverEnv, startServer } from '../support/commands';
import { until } from '../support/until';

/**
 * The DynamoDB Local a killed `npm start` leaves behind: the next start (or
 * command) on that data folder stops it, and says so only once it is gone.
 */
let serversDir: string;
let dataDir: string | undefined;
beforeEach(() => {
  serversDir = mkdtempSync(join(tmpdir(), 'contacts-servers-'));
});
afterEach(() => {
  if (dataDir) {
    for (const pid of dynamoDbLocalPids(dataDir)) process.kill(pid, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
  rmSync(serversDir, { recursive: true, force: true });
});

test('after a kill -9 of npm start, the DynamoDB Local it left is said to be stopped only once it has exited', async () => {
  const env = await serverEnv(serversDir);
  dataDir = env.CONTACTS_DATA_DIR;
  const server = await startServer(env);
  const [orphan] = dynamoDbLocalPids(dataDir);
  server.child.kill('SIGKILL');
  await server.exited;
  expect(isRunning(orphan as number)).toBe(true);

  const said: string[] = [];
  // What liveStore says, and whether the orphan still ran at that very moment.
  const running = await liveStore(dataDir, (line) => said.push(`${line} (still running: ${isRunning(orphan as number)})`));
  expect(running).toBeUndefined();
  expect(said).toEqual([`stopped the DynamoDB Local (pid ${orphan}) left running by an earlier npm start that was killed (still running: false)`]);
}, 120_000);

describe('isRunning', () => {
  test('counts a process that has exited but is not yet reaped (a zombie) as gone', async () => {
    // A child whose parent never reaps it: after it dies it stays a zombie, which signal 0 still finds.
    const parent = spawn('sh', ['-c', 'sleep 300 & echo $!; exec sleep 300'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const child = await new Promise<number>((resolve) => parent.stdout.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))));
    try {
      // Only once the shell has become `sleep` (exec): a shell still running would reap the child itself, leaving no zombie.
      await until('the shell to become sleep', () => readFileSync(`/proc/${parent.pid}/comm`, 'utf8').trim() === 'sleep', 10_000, 20);
      expect(isRunning(child)).toBe(true);
      process.kill(child, 'SIGKILL');
      expect(await waitUntilGone(child, 10_000)).toBe(true);
      expect(() => process.kill(child, 0)).not.toThrow();
    } finally {
      parent.kill('SIGKILL');
    }
  });

  test('waitUntilGone gives up, false, on a process that keeps running', async () => {
    const sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    try {
      expect(await waitUntilGone(sleeper.pid as number, 200)).toBe(false);
      expect(isRunning(sleeper.pid as number)).toBe(true);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });
});
