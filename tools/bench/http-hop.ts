/**
 * What one HTTP request costs on this machine beyond the work it waits on,
 * with nothing of the service in it: autocannon (one connection, as the
 * latency-bound comparison) against an empty local server, in another
 * process, that answers after waiting `waitMs`; minus the same wait taken
 * in a loop inside that process. With no wait both processes stay busy and
 * the hop is cheap; with a wait the cores go idle, and each request then
 * has to wake the server's process and, for the answer, autocannon's. The
 * difference is that wake-up cost, which the empty service and the service pay
 * and the bare client (one process, no HTTP) does not.
 *
 * Forked as its own child (`serve` argument) by measureHttpHop().
 */
import autocannon from 'autocannon';
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { PROJECT_ROOT } from '../../local/paths';

export interface HopResult {
  waitMs: number;
  /** ms per request over HTTP (1 connection). */
  httpMs: number;
  /** ms per iteration of the same wait in-process. */
  loopMs: number;
  /** httpMs − loopMs: what the hop adds. */
  hopMs: number;
}

type ChildMessage = { type: 'ready'; port: number } | { type: 'looped'; msPerIteration: number };

function serve(waitMs: number): void {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', async () => {
      if (waitMs > 0) await sleep(waitMs);
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
  });
  process.on('message', async (message: { type: 'loop'; durationMs: number }) => {
    if (message.type !== 'loop') return;
    const started = performance.now();
    let iterations = 0;
    while (performance.now() - started < message.durationMs) {
      await sleep(waitMs);
      iterations += 1;
    }
    process.send?.({ type: 'looped', msPerIteration: (performance.now() - started) / iterations } satisfies ChildMessage);
  });
  process.on('disconnect', () => process.exit(0));
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.send?.({ type: 'ready', port: typeof address === 'object' && address ? address.port : 0 } satisfies ChildMessage);
  });
}

/** For each wait: HTTP vs in-process time per request, `seconds` each, after a 1 s warm-up. */
export async function measureHttpHop(waits: number[] = [0, 5, 10], seconds = 3): Promise<HopResult[]> {
  const results: HopResult[] = [];
  for (const waitMs of waits) {
    const child = fork(__filename, ['serve', String(waitMs)], { cwd: PROJECT_ROOT, execArgv: ['--import', 'tsx'], stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    const next = () => new Promise<ChildMessage>((resolve) => child.once('message', (message: ChildMessage) => resolve(message)));
    try {
      const ready = await next();
      if (ready.type !== 'ready') throw new Error('the empty server did not start');
      const url = `http://127.0.0.1:${ready.port}/`;
      await autocannon({ url, connections: 1, duration: 1 });
      const run = await autocannon({ url, connections: 1, duration: seconds });
      const httpMs = (seconds * 1000) / Math.max(1, run.requests.total);
      let loopMs = 0;
      if (waitMs > 0) {
        const looped = next();
        child.send({ type: 'loop', durationMs: seconds * 1000 });
        const answer = await looped;
        loopMs = answer.type === 'looped' ? answer.msPerIteration : Number.NaN;
      }
      results.push({ waitMs, httpMs, loopMs, hopMs: httpMs - loopMs });
    } finally {
      child.kill();
    }
  }
  return results;
}

if (process.argv[2] === 'serve') serve(Number(process.argv[3]));
