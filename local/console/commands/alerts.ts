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
import { ALERT_TYPES } from '../../../lambda/alerts/alert';
import { DESTINATIONS_MAX } from '../../../lambda/alerts/ports';
import { CRASH_FREE_THRESHOLD_RANGE, DEFAULT_ALERT_SETTINGS, SPIKE_MULTIPLE_RANGE } from '../../../lambda/alerts/settings';
import { DELIVERIES_DEFAULT, DELIVERIES_MAX } from '../../../lambda/control/alert-operations';
import type { ControlOperation } from '../../../lambda/control/operation';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { COMMON_OPTIONS, parseCommandLine, printJson, runCommand, UsageError } from '../../harness/cli';
import { checkedCall, connectControl, type ControlCall } from '../control/client';
import { fieldOptions, inFlagWords, requestFromFlags, usageLine, type TableCommand } from '../control/command-line';

const COMMANDS = ['add', 'list', 'remove', 'rotate', 'disable', 'enable', 'test', 'deliveries', 'settings'] as const;
type Command = (typeof COMMANDS)[number];

/** The operation of `alerts.<name>`, its request fields as the command's flags. */
const tableCommand = (words: string, name: string): TableCommand => ({
  words,
  operation: `alerts.${name}`,
  fields: (CONTROL_OPERATIONS.get(`alerts.${name}`) as ControlOperation).fields,
});

/** Each command's operation; `settings` shows the settings, or with a flag of alerts.configure changes them. */
const TABLE: Record<Command, TableCommand> = Object.fromEntries(COMMANDS.map((command) => [command, tableCommand(command, command)])) as Record<
  Command,
  TableCommand
>;
const CONFIGURE = tableCommand('settings', 'configure');

/** What each command's usage says besides its flags. */
const ABOUT: Partial<Record<Command, string>> = {
  add: `adds a webhook destination for the factory's alerts (all types
                          unless --type names some: ${ALERT_TYPES.join(', ')}); prints it with its
                          secret (whsec_…), shown this once. At most ${DESTINATIONS_MAX} per factory.`,
  list: `the destinations, one JSON object per line: never a secret; status
                          (enabled, or disabled with the reason), and the last delivery's outcome`,
  rotate: 'a new secret, shown once; the previous one signs too for 24 hours',
  test: 'sends one signed example now ("test": true in its data) and prints how it went',
  deliveries: `the delivery log, newest first, one JSON object per line (type, issueId or, for a
                          release alert, release and environment,
                          status, attempts, httpStatus, latencyMs, …), then {"cursor": "…"} when
                          more remain (default ${DELIVERIES_DEFAULT}, at most ${DELIVERIES_MAX})`,
  settings: `shows the alert rules' settings, or changes them. Spikes: a 5-minute bucket is a
                          spike at N times the issue's rate over the hour before it (${SPIKE_MULTIPLE_RANGE.min}-${SPIKE_MULTIPLE_RANGE.max},
                          default ${DEFAULT_ALERT_SETTINGS.spikeMultiple}), and never under the floor (events in 5 minutes,
                          default ${DEFAULT_ALERT_SETTINGS.spikeFloor}). Releases: release.unhealthy when a release's hour
                          has at least --release-min-sessions sessions (default ${DEFAULT_ALERT_SETTINGS.releaseMinSessions}) and its
                          crash-free share falls below --crash-free-threshold (${CRASH_FREE_THRESHOLD_RANGE.min}-${CRASH_FREE_THRESHOLD_RANGE.max},
                          default ${DEFAULT_ALERT_SETTINGS.crashFreeThreshold}); release.recovered when it is back`,
};

const usageOf = (command: Command) => usageLine(command === 'settings' ? CONFIGURE : TABLE[command], {});

const USAGE = `usage: npm run --silent alerts -- <command> --factory <fac_id> [options]

${COMMANDS.map((command) => `  ${usageOf(command)}${ABOUT[command] ? `\n                          ${ABOUT[command]}` : ''}`).join('\n')}

A URL must be https:// and reach a public address; with npm start, http:// to this
machine (localhost, 127.0.0.1, [::1]) is allowed too, so that a local receiver can be tested.

where it runs:
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT), in this process
  --stack <name> [--region <region>]   a deployed stack's control-room function (its ControlRoomUrl
                                       output), each call signed with your AWS credentials
  --function-url <URL> [--region …]    the same, naming the function URL itself (--url is the destination's)`;

const OPTIONS = {
  ...fieldOptions([...Object.values(TABLE), CONFIGURE]),
  'function-url': { type: 'string' },
  ...COMMON_OPTIONS,
} as const;

/** Where a command runs: every one takes these. */
const WHERE = ['stack', 'region', 'function-url'];

/** The control-room request of a command line, checked as the function checks it: a bad one is a usage error before anything connects. */
function requestOf(command: Command, values: Record<string, unknown>): ControlCall {
  const changes = ['spike-multiple', 'spike-floor', 'crash-free-threshold', 'release-min-sessions'].some((flag) => values[flag] !== undefined);
  const table = command === 'settings' && changes ? CONFIGURE : TABLE[command];
  return checkedCall(requestFromFlags(table, {}, values, WHERE), inFlagWords(table));
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
