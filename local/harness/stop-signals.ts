/**
 * Calls `stop` on SIGINT or SIGTERM, and when the parent process goes away:
 * `kill <npm pid>` ends npm without passing the signal on, so a command run
 * through npm checks its parent every half second.
 */
export function onStopRequest(stop: () => Promise<void>): void {
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  const parent = process.ppid;
  setInterval(() => {
    if (process.ppid !== parent) void stop();
  }, 500).unref();
}
