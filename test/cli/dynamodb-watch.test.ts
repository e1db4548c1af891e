import type { DynamoDbLocal, ExitStatus } from '../../local/harness/dynamodb-local';
import { watchDynamoDbLocal, type DynamoDbWatchOptions } from '../../local/harness/dynamodb-watch';

/**
 * The watch's rules, on stand-in processes (the real kill -9 is
 * start-watch.test.ts): restart after an unexpected exit, give up when it
 * keeps dying or will not start, never restart once stopped.
 */
interface Fake extends DynamoDbLocal {
  die(status: ExitStatus): void;
  stopped: boolean;
}

let nextPid = 1000;
function fake(): Fake {
  const listeners: ((status: ExitStatus, lastOutput: string) => void)[] = [];
  const process: Fake = {
    endpoint: 'http://localhost:8000',
    pid: nextPid++,
    stopped: false,
    stop: async () => {
      process.stopped = true;
    },
    onUnexpectedExit: (listener) => void listeners.push(listener),
    die: (status) => listeners.forEach((listener) => listener(status, 'java.lang.OutOfMemoryError: Java heap space')),
  };
  return process;
}

function harness(overrides: Partial<DynamoDbWatchOptions> = {}) {
  const said: string[] = [];
  const started: Fake[] = [];
  const gaveUp: string[] = [];
  const restarted: number[] = [];
  const options: DynamoDbWatchOptions = {
    restart: async () => {
      const next = fake();
      started.push(next);
      return next;
    },
    say: (line) => said.push(line),
    dataLabel: '.data/dynamodb',
    onRestarted: (next) => restarted.push(next.pid),
    onGiveUp: (reason) => gaveUp.push(reason),
    ...overrides,
  };
  return { said, started, gaveUp, restarted, options };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

test('an unexpected exit is said with the pid and how it ended, and a new process takes over', async () => {
  const first = fake();
  const h = harness();
  const watch = watchDynamoDbLocal(first, h.options);
  first.die({ code: 1, signal: null });
  await settle();
  expect(h.said[0]).toBe(
    `DynamoDB Local (pid ${first.pid}) exited unexpectedly (exit code 1); its last output: java.lang.OutOfMemoryError: Java heap space: requests answer 503 meanwhile; restarting it on the same data (.data/dynamodb) …`,
  );
  expect(h.said[1]).toMatch(new RegExp(`^DynamoDB Local is back \\(pid ${h.started[0]?.pid}, \\d+ ms to start\\): requests succeed again$`));
  expect(watch.current()).toBe(h.started[0]);
  expect(h.restarted).toEqual([h.started[0]?.pid]);
  expect(h.gaveUp).toEqual([]);
});

test('more exits than the restarts allowed within the window: it gives up with the reason, and starts nothing more', async () => {
  const first = fake();
  const h = harness({ maxRestarts: 2, windowMs: 60_000 });
  watchDynamoDbLocal(first, h.options);
  first.die({ code: null, signal: 'SIGKILL' });
  await settle();
  h.started[0]?.die({ code: null, signal: 'SIGKILL' });
  await settle();
  h.started[1]?.die({ code: null, signal: 'SIGKILL' });
  await settle();
  expect(h.started).toHaveLength(2);
  expect(h.gaveUp).toEqual([
    'DynamoDB Local keeps exiting: 2 restarts within 60 s, and it died again (signal SIGKILL). Stopping; look at the data folder (.data/dynamodb), the memory and the disk, then npm start again',
  ]);
});

test('a restart that fails is tried again within the budget, then given up with the failure', async () => {
  const first = fake();
  let attempts = 0;
  const h = harness({
    maxRestarts: 3,
    restart: async () => {
      attempts += 1;
      throw new Error('port 8000 (DynamoDB Local) is already in use');
    },
  });
  watchDynamoDbLocal(first, h.options);
  first.die({ code: null, signal: 'SIGKILL' });
  for (let i = 0; i < 10; i += 1) await settle();
  expect(attempts).toBe(3);
  expect(h.gaveUp).toEqual([expect.stringContaining('it would not start again: port 8000 (DynamoDB Local) is already in use')]);
});

test('stop() stops the process running now, and a death after it restarts nothing', async () => {
  const first = fake();
  const h = harness();
  const watch = watchDynamoDbLocal(first, h.options);
  first.die({ code: null, signal: 'SIGKILL' });
  await settle();
  const second = h.started[0] as Fake;
  await watch.stop();
  expect(second.stopped).toBe(true);
  second.die({ code: null, signal: 'SIGTERM' });
  await settle();
  expect(h.started).toHaveLength(1);
  expect(h.said).toHaveLength(2);
});
