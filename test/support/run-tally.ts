import { createServer, type Server } from 'node:http';
import { startReportStreams, STREAMS_VARIABLE } from '../../local/harness/streams/report-streams';
import type { StreamPoller } from '../../local/harness/streams/stream-poller';

export interface RunTally {
  stop(): Promise<void>;
}

/** Where the test workers ask the run's tally to catch up (test/support/tally.ts). */
export const TALLY_DRAIN_VARIABLE = 'CONTACTS_TEST_TALLY_URL';

/**
 * The tally of the whole test run (jest's global setup): the reports table's
 * stream on the run's DynamoDB Local read by the same consumers `npm start`
 * runs, in the parent process, as on AWS one event source mapping serves
 * every container. Workers wait for it to catch up through a small HTTP
 * endpoint on loopback (tallied()); every `npm start` a test runs on the
 * run's store leaves the stream to it (CONTACTS_STREAMS=off, inherited).
 */
export async function startRunTally(endpoint: string): Promise<RunTally> {
  delete process.env[STREAMS_VARIABLE];
  // Quiet, as the workers are (test/support/env.ts): the tally's log line per batch would bury jest's output.
  process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
  // A pass a second, as the stack's batching window (1 s): a worker that waits on the tally asks for a pass at once
  // (tallied()), and idle passes of the whole run cost DynamoDB Local's CPU (each is a DescribeStream and a
  // GetRecords per shard: at 4 a second, about 1.1 s of CPU every 30 s between the JVM and this process).
  const poller = (await startReportStreams({ endpoint, pollMs: 1000, say: (line) => process.stderr.write(`run tally: ${line}\n`) })) as StreamPoller;
  const server: Server = createServer((request, response) => {
    poller.drain(60_000).then(
      () => response.writeHead(204).end(),
      (error: unknown) => response.writeHead(500, { 'Content-Type': 'text/plain' }).end(error instanceof Error ? error.message : String(error)),
    );
    request.resume();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('the run tally did not get a port');
  process.env[TALLY_DRAIN_VARIABLE] = `http://127.0.0.1:${address.port}/drain`;
  process.env[STREAMS_VARIABLE] = 'off';
  return {
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await poller.stop();
    },
  };
}
