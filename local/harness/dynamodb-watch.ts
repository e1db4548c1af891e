import { describeExit, type DynamoDbLocal, type ExitStatus } from './dynamodb-local';

/**
 * Keeps `npm start`'s embedded DynamoDB Local up. When the java process
 * exits by itself (killed, crashed, out of memory) the watch says so at once,
 * starts it again on the same data folder and port, and says when it answers
 * again; meanwhile requests get 503, as from any unavailable store. One that
 * keeps dying (more than `maxRestarts` within `windowMs`) or will not start
 * again is given up: `onGiveUp` gets the reason, and the server stops.
 */
export interface DynamoDbWatchOptions {
  /** Starts DynamoDB Local again, on the same data folder and port. */
  restart(): Promise<DynamoDbLocal>;
  say(line: string): void;
  /** What the messages call its data: a folder, for people. */
  dataLabel: string;
  /** Told of every new process (to record its pid in the store lock). */
  onRestarted(dynamo: DynamoDbLocal): void;
  onGiveUp(reason: string): void;
  maxRestarts?: number;
  windowMs?: number;
}

export interface DynamoDbWatch {
  /** The DynamoDB Local running now. */
  current(): DynamoDbLocal;
  /** Stops watching, waits for a restart under way, and stops the one running. */
  stop(): Promise<void>;
}

export const DEFAULT_MAX_RESTARTS = 3;
export const DEFAULT_RESTART_WINDOW_MS = 60_000;

export function watchDynamoDbLocal(first: DynamoDbLocal, options: DynamoDbWatchOptions): DynamoDbWatch {
  const maxRestarts = options.maxRestarts ?? DEFAULT_MAX_RESTARTS;
  const windowMs = options.windowMs ?? DEFAULT_RESTART_WINDOW_MS;
  let current = first;
  let stopped = false;
  let restarting: Promise<void> = Promise.resolve();
  const restarts: number[] = [];

  const died = (dead: DynamoDbLocal, status: ExitStatus, lastOutput: string) => {
    if (stopped) return;
    const output = status.signal === null && lastOutput ? `; its last output: ${lastOutput}` : '';
    options.say(
      `DynamoDB Local (pid ${dead.pid}) exited unexpectedly (${describeExit(status)})${output}: requests answer 503 meanwhile; restarting it on the same data (${options.dataLabel}) …`,
    );
    restarting = restartUntilUp(`${describeExit(status)}${output}`);
  };

  const restartUntilUp = async (why: string): Promise<void> => {
    let reason = why;
    for (;;) {
      const now = Date.now();
      while (restarts.length > 0 && (restarts[0] as number) <= now - windowMs) restarts.shift();
      if (restarts.length >= maxRestarts) {
        stopped = true;
        options.onGiveUp(
          `DynamoDB Local keeps exiting: ${maxRestarts} restarts within ${windowMs / 1000} s, and it died again (${reason}). Stopping; look at the data folder (${options.dataLabel}), the memory and the disk, then npm start again`,
        );
        return;
      }
      restarts.push(now);
      const started = Date.now();
      try {
        const next = await options.restart();
        if (stopped) {
          await next.stop();
          return;
        }
        current = next;
        next.onUnexpectedExit((status, lastOutput) => died(next, status, lastOutput));
        options.onRestarted(next);
        options.say(`DynamoDB Local is back (pid ${next.pid}, ${Date.now() - started} ms to start): requests succeed again`);
        return;
      } catch (error) {
        reason = `it would not start again: ${error instanceof Error ? error.message : String(error)}`;
        if (stopped) return;
      }
    }
  };

  first.onUnexpectedExit((status, lastOutput) => died(first, status, lastOutput));
  return {
    current: () => current,
    stop: async () => {
      stopped = true;
      await restarting;
      await current.stop();
    },
  };
}
