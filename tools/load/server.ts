import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../local/harness/paths';
import { scriptCommand } from '../../local/harness/scripts';

/** `npm start`, run as a child process on a given DynamoDB, and what it logged. */
export interface StartedServer {
  baseUrl: string;
  pid: number;
  /** Its request log lines (JSON, one per request) and any ERROR-level line. */
  log(): { requests: number; errors: string[] };
  stop(): Promise<void>;
}

/**
 * Starts local/harness/commands/start.ts exactly as `npm start` does, on `endpoint` (so it
 * starts no DynamoDB of its own) and `port`, with a throwaway data folder for
 * its lock file, and resolves once it says it listens.
 */
export function startServer(options: { endpoint: string; port: number; bundle: boolean; logLevel: string }): Promise<StartedServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contacts-load-'));
  // As package.json starts it: a path written out here went stale once already, when the house moved its rooms.
  const { nodeOptions, entry } = scriptCommand('start');
  const child: ChildProcess = spawn(process.execPath, [...nodeOptions, entry, ...(options.bundle ? ['--bundle'] : [])], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      PORT: String(options.port),
      DYNAMODB_ENDPOINT: options.endpoint,
      CONTACTS_DATA_DIR: dataDir,
      LOG_LEVEL: options.logLevel,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let requests = 0;
  const errors: string[] = [];
  let pending = '';
  let banner = '';
  const onOutput = (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith('{')) {
        banner += `${line}\n`;
        continue;
      }
      if (line.includes('"message":"request"')) requests += 1;
      if (line.includes('"level":"ERROR"')) errors.push(line);
    }
  };
  child.stdout?.on('data', onOutput);
  child.stderr?.on('data', onOutput);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    rmSync(dataDir, { recursive: true, force: true });
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`npm start did not listen within 180 s:\n${banner}`)));
    }, 180_000);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before listening:\n${banner}`));
    });
    const check = () => {
      const match = /listening on (http:\/\/\S+)/.exec(banner);
      if (!match) return;
      clearTimeout(timer);
      child.stdout?.removeListener('data', check);
      resolve({ baseUrl: match[1] as string, pid: child.pid as number, log: () => ({ requests, errors }), stop });
    };
    child.stdout?.on('data', check);
  });
}
