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
import { KEY_ID_PATTERN } from '../../../lambda/kernel/api-key';
import { KeyAdmin } from '../../../lambda/infrastructure/store/keys/key-admin';
import { SetupError } from '../../harness/setup-error';
import { connectStore } from '../../harness/store';
import { clientOfStore, storeClient } from '../control/client';
import { fieldOptions, usageLine } from '../control/command-line';
import { plan, printingOf, tableCommands } from '../control/table-commands';

const COMMANDS = tableCommands(['keys']);

/** Flags every action takes: where it runs. */
const WHERE = ['stack', 'region'];

const USAGE = `usage: npm run --silent keys -- <action> [options]

${COMMANDS.map(
  (command) =>
    `  ${usageLine(command, printingOf(command))
      .replace(/^keys /, '')
      .replace(/^revoke --factory/, 'revoke <key_id>, or revoke --factory')}`,
).join('\n')}

create issues a key and prints it once, secret included (dfsk_… for servers; with --type publishable
a dfpk_… key for the websites of its --origin, and a "dsn" for Sentry SDKs, docs/sentry-sdks.md;
--servers: requests without an Origin, a customer's servers, may report with it too). list prints
the factory's keys as one JSON array, never a secret: type, origins, status, and for a secret key
seen at the ingest API its exposed record (rotate it). revoke makes the key answer 401 from its
next request on.

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
  const named = values as Record<string, unknown>;
  if (action === undefined) throw new UsageError('an action is required: create, list or revoke (see below)');
  if (extra !== undefined && action !== 'revoke') throw new UsageError(`unexpected argument "${extra}"`);
  if (positionals.length > 2) throw new UsageError(`unexpected argument "${positionals[2]}"`);
  if (extra !== undefined && (named.factory !== undefined || named.key !== undefined)) {
    throw new UsageError(`name the key once: keys -- revoke ${extra}, or keys -- revoke --factory <fac_id> --key <key_id>`);
  }
  const actions = COMMANDS.map((command) => command.words.replace(/^keys /, ''));
  if (!actions.includes(action)) throw new UsageError(`unknown action "${action}": ${actions.join(', ')}`);
  const target = { stack: values.stack, region: values.region };
  // `revoke <keyId>` (the contract's form) names the key alone: its factory is read from the key.
  const byIdAlone = action === 'revoke' && extra !== undefined && named.factory === undefined && named.key === undefined;
  if (!byIdAlone) {
    const run = plan(COMMANDS, 'keys', action, values, WHERE);
    const client = await storeClient(target, ['keys']);
    try {
      await run(client);
    } finally {
      await client.close();
    }
    return;
  }
  if (!KEY_ID_PATTERN.test(extra)) throw new UsageError(`revoke takes a key id (key_ + 16 hex, as keys list shows), got "${extra}"`);
  const store = await connectStore(target, ['keys']);
  const client = clientOfStore(store, target);
  try {
    const factory = await new KeyAdmin(store.doc, store.tables.keys).factoryOf(extra);
    if (factory === undefined) throw new SetupError(`no key ${extra} (keys -- list --factory <fac_id> shows a factory's keys)`);
    await plan(COMMANDS, 'keys', action, { ...values, factory, key: extra }, WHERE)(client);
  } finally {
    await client.close();
  }
});
