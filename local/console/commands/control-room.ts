/**
 * The control room in a browser: npm run control-room -- [--port N] [--stack NAME [--region R] | --url U]
 *
 * Serves the control-room web app on 127.0.0.1 (default port 4000) and
 * prints the URL to open, which holds this run's secret. Every page and
 * action is a control-room operation, run where `control` runs them: in
 * this process on the store `npm start` uses, or signed with your AWS
 * credentials to a deployed stack's control-room function.
 */
import { COMMON_OPTIONS, parseCommandLine, positiveIntArg, runCommand, UsageError } from '../../harness/cli';
import { connectControl } from '../control/client';
import { createSession } from '../control-room/security';
import { createControlRoomServer, listenLocal } from '../control-room/server';
import { SetupError } from '../../harness/setup-error';
import { onStopRequest } from '../../harness/stop-signals';
import { registerControlRoom, unregisterControlRoom } from '../../harness/control-rooms';

export const DEFAULT_CONTROL_ROOM_PORT = 4000;

const USAGE = `usage: npm run control-room -- [--port <N>] [--stack <name> [--region <region>] | --url <function url>]

Starts the control room web app on http://127.0.0.1:<port> (default ${DEFAULT_CONTROL_ROOM_PORT}) and prints
the URL to open: it holds this run's secret and signs the browser in. Stop it with Ctrl-C.

where the operations run (as for npm run control):
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT), in this process
  --stack <name> [--region <region>]   a deployed stack's control-room function (its ControlRoomUrl
                                       output), each call signed with your AWS credentials
  --url <function url> [--region …]    the same, naming the function URL itself`;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, { port: { type: 'string' }, url: { type: 'string' }, ...COMMON_OPTIONS });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  if (values.url !== undefined && values.stack !== undefined) throw new UsageError('give --stack or --url, not both');
  if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.url)) {
    throw new UsageError(`--url must be a function URL like https://<id>.lambda-url.<region>.on.aws/, got "${values.url}"`);
  }
  const port = positiveIntArg('--port', values.port, 65535) ?? DEFAULT_CONTROL_ROOM_PORT;

  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  const session = createSession(port);
  const server = createControlRoomServer({ client, session });
  try {
    await listenLocal(server, port);
  } catch (error) {
    await client.close();
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new SetupError(`port ${port} is already in use: stop what listens there, or pick another (npm run control-room -- --port ${port + 1})`);
    }
    throw error;
  }

  let stopping = false;
  const stop = async () => {
    if (stopping) process.exit(1);
    stopping = true;
    unregisterControlRoom();
    server.close();
    server.closeAllConnections();
    await client.close();
    process.exit(0);
  };
  onStopRequest(stop);

  // On the local store, alerts sent under npm start link here (local/harness/control-rooms.ts).
  const local = values.stack === undefined && values.url === undefined;
  if (local) registerControlRoom(`http://127.0.0.1:${port}`);
  process.stderr.write(`operations run on ${client.where}\n`);
  process.stdout.write(`Control room: open ${session.loginUrl()}\n`);
});
