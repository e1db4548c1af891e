/**
 * npm run semantics: the service-semantics proxy (proxy.ts) as a command, in
 * front of a DynamoDB Local of its own (in memory) or of --target, until
 * Ctrl-C or SIGTERM. Its one line on stdout is what a script needs:
 *
 *   DYNAMODB_ENDPOINT=http://localhost:8100
 *
 * so that `DYNAMODB_ENDPOINT=http://localhost:8100 npm start` (or a test run,
 * or a benchmark) runs on DynamoDB with the service's conflicts and ceilings.
 * A separate command because what ships (local/) must not import tools/.
 */
import { parseCommandLine, runCommand, UsageError } from '../../local/harness/cli';
import { startDynamoDbLocal, type DynamoDbLocal } from '../../local/harness/dynamodb-local';
import { freePort, isPortInUse } from '../../local/harness/ports';
import { SetupError } from '../../local/harness/setup-error';
import { onStopRequest } from '../../local/harness/stop-signals';
import { configProblem, DEFAULT_CONFIG, settingsFromEnv, type SemanticsConfig } from './config';
import { startSemanticsProxy } from './proxy';

const DEFAULT_PORT = 8100;

const USAGE = `usage: npm run semantics [-- options]

Runs DynamoDB Local behind the service-semantics proxy, which adds what
DynamoDB on AWS does and DynamoDB Local does not: transaction conflicts, and
a write ceiling per partition key value of every table and index, refused as
the service refuses them; and counts write units, throttles and conflicts per
partition key (GET /__semantics/stats). Starts its own DynamoDB Local (in
memory) unless --target names one. Prints DYNAMODB_ENDPOINT=<proxy> on stdout
once it answers, then runs until Ctrl-C or SIGTERM.

  --ceiling N      write units a second per partition key value (default ${DEFAULT_CONFIG.ceiling},
                   the service's; 100 is a 1:10 scale model, 20 a 1:50 one; env SEMANTICS_CEILING)
  --no-ceiling     refuse no write for throughput (units are still counted)
  --burst S        seconds of its ceiling a partition may spend at once (default ${DEFAULT_CONFIG.burstSeconds}; env SEMANTICS_BURST)
  --hold-ms N      milliseconds a transaction keeps its items after DynamoDB Local
                   answered, its commit window (default ${DEFAULT_CONFIG.holdMs}; env SEMANTICS_HOLD_MS)
  --no-conflicts   raise no transaction conflicts (env SEMANTICS_CONFLICTS=off)
  --port N         the proxy's port (default ${DEFAULT_PORT}; 0 picks a free one; env SEMANTICS_PORT)
  --target URL     a running DynamoDB Local to put the proxy in front of (env SEMANTICS_TARGET)

  DYNAMODB_ENDPOINT=http://localhost:${DEFAULT_PORT} npm start   then runs the service on it`;

function numberArg(name: string, value: string | undefined, check: (number: number) => boolean, expected: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const number = Number(value);
  if (!Number.isFinite(number) || !check(number)) throw new UsageError(`${name} must be ${expected}, got "${value}"`);
  return number;
}

function targetArg(value: string | undefined): string | undefined {
  if (value === undefined || value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--target must be a URL such as http://localhost:8000, got "${value}"`);
  }
  if (url.protocol !== 'http:') throw new UsageError(`--target must be an http:// URL (DynamoDB Local), got "${value}"`);
  return url.origin;
}

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, {
    ceiling: { type: 'string' },
    'no-ceiling': { type: 'boolean' },
    burst: { type: 'string' },
    'hold-ms': { type: 'string' },
    'no-conflicts': { type: 'boolean' },
    port: { type: 'string' },
    target: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const env = process.env;
  if (values.ceiling !== undefined && values['no-ceiling']) throw new UsageError('--ceiling and --no-ceiling exclude each other: give one');
  let fromEnv: Partial<SemanticsConfig>;
  try {
    fromEnv = settingsFromEnv(env);
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
  const config: SemanticsConfig = {
    ...DEFAULT_CONFIG,
    ...fromEnv,
    ...(values.ceiling !== undefined
      ? { ceiling: numberArg('--ceiling', values.ceiling, (n) => n > 0, 'a positive number of write units a second') as number, throttling: true }
      : {}),
    ...(values['no-ceiling'] ? { throttling: false } : {}),
    ...(values.burst !== undefined ? { burstSeconds: numberArg('--burst', values.burst, (n) => n > 0, 'a positive number of seconds') as number } : {}),
    ...(values['hold-ms'] !== undefined
      ? { holdMs: numberArg('--hold-ms', values['hold-ms'], (n) => n >= 0, 'a number of milliseconds, 0 or more') as number }
      : {}),
    ...(values['no-conflicts'] ? { conflicts: false } : {}),
  };
  const problem = configProblem(config);
  if (problem) throw new UsageError(problem);
  const port =
    numberArg('--port', values.port ?? env.SEMANTICS_PORT, (n) => Number.isInteger(n) && n >= 0 && n <= 65535, 'a port number (0-65535)') ?? DEFAULT_PORT;
  const givenTarget = targetArg(values.target ?? env.SEMANTICS_TARGET);
  const say = (line: string) => process.stderr.write(`${line}\n`);

  if (port !== 0 && (await isPortInUse(port)))
    throw new SetupError(`port ${port} is already in use: stop what listens there, or choose another with --port (0 picks a free one)`);
  let dynamo: DynamoDbLocal | undefined;
  if (!givenTarget) {
    dynamo = await startDynamoDbLocal({ port: await freePort(), fastStart: true });
    say(`started DynamoDB Local (in memory, pid ${dynamo.pid}) at ${dynamo.endpoint}`);
  }
  const target = givenTarget ?? (dynamo as DynamoDbLocal).endpoint;
  const proxy = await startSemanticsProxy({ target, port, ...config }).catch(async (error: unknown) => {
    await dynamo?.stop();
    throw new SetupError(`could not start the proxy on port ${port}: ${error instanceof Error ? error.message : String(error)}`);
  });
  const ceiling = config.throttling
    ? `ceiling ${config.ceiling} write units/s per partition key (burst ${config.burstSeconds} s)`
    : 'no ceiling (units counted)';
  const conflicts = config.conflicts ? `transaction conflicts on (hold ${config.holdMs} ms)` : 'no transaction conflicts';
  say(`semantics proxy on ${proxy.endpoint} in front of ${target}: ${ceiling}, ${conflicts}`);
  say(`counts: curl ${proxy.endpoint}/__semantics/stats   reset: curl -X POST ${proxy.endpoint}/__semantics/reset`);
  process.stdout.write(`DYNAMODB_ENDPOINT=${proxy.endpoint}\n`);

  let stopping = false;
  onStopRequest(async () => {
    if (stopping) return;
    stopping = true;
    const { totals } = proxy.stats();
    for (const [name, counts] of Object.entries(totals)) {
      say(`${name}: ${counts.writes} writes, ${counts.units} write units, ${counts.throttles} throttled, ${counts.conflicts} conflicts`);
    }
    await proxy.close();
    await dynamo?.stop();
    process.exit(0);
  });
});
