/**
 * Key management: npm run --silent keys -- <action> [options]
 *
 * The control room's key operations (lambda/control/key-operations.ts),
 * checked, run and printed as `control -- keys <action>` runs them
 * (local/console/control/table-commands.ts): one implementation, so the two
 * print and revoke alike. What differs is where they run: this command
 * always in this process, on the store `npm start` uses or with --stack on
 * a deployed stack's tables with your own AWS credentials (the way in when
 * the control-room function is not reachable, say for the first key);
 * `control --stack` through the deployed function, which audits the call.
 */
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../../lambda/kernel/limits';
import { DEFAULT_PUBLISHABLE_RATE_LIMIT } from '../../../lambda/kernel/limits';
import { COMMON_OPTIONS, parseCommandLine, runCommand, UsageError } from '../../harness/cli';
import { storeClient } from '../control/client';
import { fieldOptions, usageLine } from '../control/command-line';
import { plan, printingOf, tableCommands } from '../control/table-commands';

const COMMANDS = tableCommands(['keys']);

/** Flags every action takes: where it runs. */
const WHERE = ['stack', 'region'];

const USAGE = `usage: npm run --silent keys -- <action> [options]

${COMMANDS.map((command) => `  ${usageLine(command, printingOf(command)).replace(/^keys /, '')}`).join('\n')}

create issues a key and prints it once, secret included (dfsk_… for servers; with --type publishable
a dfpk_… key for the websites of its --origin, and a "dsn" for Sentry SDKs, docs/sentry-sdks.md;
--servers: requests without an Origin, a customer's servers, may report with it too). list prints
one key per line, never a secret: type, origins, status, and for a secret key seen at the ingest
API its exposed record (rotate it). revoke makes the key answer 401 from its next request on.

Without --rate-limit a secret key gets ${DEFAULT_RATE_LIMIT_PER_MINUTE} requests per minute, or with --stack the stack's
defaultRateLimit (its DefaultRateLimit output); a publishable key ${DEFAULT_PUBLISHABLE_RATE_LIMIT}.

An origin is scheme://host[:port] (http or https, no path): https://app.example.com,
http://localhost:5173, or https://*.example.com for every subdomain of example.com (not
example.com itself). At most 50; * and null are refused.

The same actions, audited by the control-room function on a deployed stack: npm run control -- keys <action>.

where it runs:
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT)
  --stack <name> [--region <region>]   a deployed stack's keys table, with your AWS credentials`;

const OPTIONS = { ...fieldOptions(COMMANDS), ...COMMON_OPTIONS } as const;

runCommand(USAGE, async (argv) => {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [action, extra] = positionals;
  if (action === undefined) throw new UsageError('an action is required: create, list or revoke (see below)');
  if (extra !== undefined) {
    throw new UsageError(
      /^key_/.test(extra) && action === 'revoke'
        ? `revoke names the key with --key and its factory with --factory: keys -- revoke --factory <fac_id> --key ${extra}`
        : `unexpected argument "${extra}"`,
    );
  }
  const actions = COMMANDS.map((command) => command.words.replace(/^keys /, ''));
  if (!actions.includes(action)) throw new UsageError(`unknown action "${action}": ${actions.join(', ')}`);
  const run = plan(COMMANDS, 'keys', action, values, WHERE);
  const client = await storeClient({ stack: values.stack, region: values.region }, ['keys']);
  try {
    await run(client);
  } finally {
    await client.close();
  }
});
