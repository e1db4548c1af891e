/**
 * Issue alerts from the command line (docs/alerts.md): npm run --silent alerts -- <command> [options]
 *
 *   add | list | remove | rotate | disable | enable | test | deliveries | settings
 *
 * Each is a control-room operation (alerts.*): in this process on the store
 * `npm start` uses, or with --stack/--url through the deployed control-room
 * function (SigV4, the caller's IAM principal in its audit line), exactly as
 * `control` and `reports` do.
 */
import { ALERT_TYPES } from '../../lambda/alerts/alert';
import { DESTINATIONS_MAX } from '../../lambda/alerts/ports';
import { DEFAULT_ALERT_SETTINGS, SPIKE_FLOOR_RANGE, SPIKE_MULTIPLE_RANGE } from '../../lambda/alerts/settings';
import { DELIVERIES_DEFAULT, DELIVERIES_MAX } from '../../lambda/control/alert-operations';
import { ControlError } from '../../lambda/control/operation';
import { parseControlRequest } from '../../lambda/control/request';
import { COMMON_OPTIONS, factoryIdArg, parseCommandLine, positiveIntArg, printJson, runCommand, UsageError } from '../cli';
import { connectControl, type ControlCall } from '../control/client';

const USAGE = `usage: npm run --silent alerts -- <command> --factory <fac_id> [options]

  add --factory <fac_id> --url <URL> [--type <type> …] [--description <text>]
                          adds a webhook destination for the factory's issue alerts (all types
                          unless --type names some: ${ALERT_TYPES.join(', ')}); prints it with its
                          secret (whsec_…), shown this once. At most ${DESTINATIONS_MAX} per factory.
  list --factory <fac_id>
                          the destinations, one JSON object per line: never a secret; status
                          (enabled, or disabled with the reason), and the last delivery's outcome
  remove --factory <fac_id> --destination <dst_id>
  rotate --factory <fac_id> --destination <dst_id>
                          a new secret, shown once; the previous one signs too for 24 hours
  disable --factory <fac_id> --destination <dst_id> --reason <text>
  enable --factory <fac_id> --destination <dst_id>
  test --factory <fac_id> --destination <dst_id> [--type <type>]
                          sends one signed example now ("test": true in its data) and prints how it went
  deliveries --factory <fac_id> [--destination <dst_id>] [--limit <N>] [--cursor <C>]
                          the delivery log, newest first, one JSON object per line (type, issueId,
                          status, attempts, httpStatus, latencyMs, …), then {"cursor": "…"} when
                          more remain (default ${DELIVERIES_DEFAULT}, at most ${DELIVERIES_MAX})
  settings --factory <fac_id> [--spike-multiple <N>] [--spike-floor <N>]
                          shows the spike rule's settings, or changes them: a 5-minute bucket is a
                          spike at N times the issue's rate over the hour before it (${SPIKE_MULTIPLE_RANGE.min}-${SPIKE_MULTIPLE_RANGE.max},
                          default ${DEFAULT_ALERT_SETTINGS.spikeMultiple}), and never under the floor (events in 5 minutes,
                          default ${DEFAULT_ALERT_SETTINGS.spikeFloor})

A URL must be https:// and reach a public address; with npm start, http:// to this
machine (localhost, 127.0.0.1, [::1]) is allowed too, so that a local receiver can be tested.

where it runs:
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT), in this process
  --stack <name> [--region <region>]   a deployed stack's control-room function (its ControlRoomUrl
                                       output), each call signed with your AWS credentials
  --function-url <URL> [--region …]    the same, naming the function URL itself (--url is the destination's)`;

const OPTIONS = {
  factory: { type: 'string' },
  url: { type: 'string' },
  type: { type: 'string', multiple: true },
  description: { type: 'string' },
  destination: { type: 'string' },
  reason: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  'spike-multiple': { type: 'string' },
  'spike-floor': { type: 'string' },
  'function-url': { type: 'string' },
  ...COMMON_OPTIONS,
} as const;

type Values = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];
type OptionName = keyof typeof OPTIONS;

const COMMANDS = ['add', 'list', 'remove', 'rotate', 'disable', 'enable', 'test', 'deliveries', 'settings'] as const;
type Command = (typeof COMMANDS)[number];

/** The options each command takes besides --factory and where it runs. */
const TAKES: Record<Command, OptionName[]> = {
  add: ['url', 'type', 'description'],
  list: [],
  remove: ['destination'],
  rotate: ['destination'],
  disable: ['destination', 'reason'],
  enable: ['destination'],
  test: ['destination', 'type'],
  deliveries: ['destination', 'limit', 'cursor'],
  settings: ['spike-multiple', 'spike-floor'],
};
const WHERE: OptionName[] = ['factory', 'stack', 'region', 'function-url'];

/** The control-room request of a command line, checked as the function checks it: a bad one is a usage error before anything connects. */
function requestOf(command: Command, values: Values): ControlCall {
  for (const name of Object.keys(values) as OptionName[]) {
    if (!TAKES[command].includes(name) && !WHERE.includes(name)) throw new UsageError(`${command} does not take --${name}`);
  }
  const factoryId = factoryIdArg(values.factory);
  const needs = (name: 'url' | 'destination' | 'reason', what: string): string => {
    const value = values[name];
    if (value === undefined) throw new UsageError(`${command} needs --${name} <${what}>`);
    return value;
  };
  const types = values.type ?? [];
  for (const type of types) if (!(ALERT_TYPES as readonly string[]).includes(type)) throw new UsageError(`--type must be one of ${ALERT_TYPES.join(', ')}, got "${type}"`);
  let request: ControlCall;
  switch (command) {
    case 'add':
      request = { operation: 'alerts.add', factoryId, url: needs('url', 'URL'), ...(types.length > 0 ? { types } : {}), ...(values.description === undefined ? {} : { description: values.description }) };
      break;
    case 'list':
      request = { operation: 'alerts.list', factoryId };
      break;
    case 'disable':
      request = { operation: 'alerts.disable', factoryId, destinationId: needs('destination', 'dst_id'), reason: needs('reason', 'text') };
      break;
    case 'test':
      if (types.length > 1) throw new UsageError('test sends one example: give --type once');
      request = { operation: 'alerts.test', factoryId, destinationId: needs('destination', 'dst_id'), ...(types[0] === undefined ? {} : { type: types[0] }) };
      break;
    case 'deliveries':
      request = {
        operation: 'alerts.deliveries',
        factoryId,
        ...(values.destination === undefined ? {} : { destinationId: values.destination }),
        ...(values.limit === undefined ? {} : { limit: positiveIntArg('--limit', values.limit, DELIVERIES_MAX) }),
        ...(values.cursor === undefined ? {} : { cursor: values.cursor }),
      };
      break;
    case 'settings': {
      const multiple = values['spike-multiple'];
      const floor = values['spike-floor'];
      if (multiple === undefined && floor === undefined) {
        request = { operation: 'alerts.settings', factoryId };
      } else {
        request = {
          operation: 'alerts.configure',
          factoryId,
          ...(multiple === undefined ? {} : { spikeMultiple: wholeIn('--spike-multiple', multiple, SPIKE_MULTIPLE_RANGE) }),
          ...(floor === undefined ? {} : { spikeFloor: wholeIn('--spike-floor', floor, SPIKE_FLOOR_RANGE) }),
        };
      }
      break;
    }
    default:
      request = { operation: `alerts.${command}`, factoryId, destinationId: needs('destination', 'dst_id') };
  }
  try {
    parseControlRequest(request);
  } catch (error) {
    if (error instanceof ControlError) throw new UsageError(error.message.replace(/^destinationId/, '--destination'));
    throw error;
  }
  return request;
}

function wholeIn(name: string, value: string, range: { min: number; max: number }): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < range.min || number > range.max) throw new UsageError(`${name} must be a whole number from ${range.min} to ${range.max}, got "${value}"`);
  return number;
}

const line = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

runCommand(USAGE, async (argv) => {
  // --url is the destination's URL here; the control-room function's URL is --function-url.
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [command, extra] = positionals;
  if (command === undefined) throw new UsageError(`say what to do: ${COMMANDS.join(', ')}`);
  if (!(COMMANDS as readonly string[]).includes(command)) throw new UsageError(`unknown command "${command}": use ${COMMANDS.join(', ')}`);
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (values.region !== undefined && values.stack === undefined && values['function-url'] === undefined) {
    throw new UsageError('--region goes with --stack <name> or --function-url <URL> (locally there is no region)');
  }
  const request = requestOf(command as Command, values);
  const client = await connectControl({ stack: values.stack, region: values.region, url: values['function-url'] });
  try {
    const answer = await client.call(request);
    switch (command as Command) {
      case 'list':
        for (const destination of answer.destinations as unknown[]) line(destination);
        break;
      case 'deliveries':
        for (const delivery of answer.deliveries as unknown[]) line(delivery);
        if (answer.cursor !== undefined) line({ cursor: answer.cursor });
        break;
      case 'test': {
        const delivery = answer.delivery as { status: string };
        printJson(delivery);
        if (delivery.status !== 'delivered') process.exitCode = 1;
        break;
      }
      default:
        printJson(answer);
    }
  } finally {
    await client.close();
  }
});
