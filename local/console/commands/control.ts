/**
 * The control room from the command line: npm run --silent control -- <what> <action> [options]
 *
 * Each command is an operation of the control room's table
 * (lambda/control/operations.ts), `contacts list` for `contacts.list`, for
 * the groups below; its flags are the operation's request fields and its
 * usage line is written from them (local/console/control/command-line.ts),
 * and how it checks, runs and prints is local/console/control/table-commands.ts
 * (the keys command's too).
 *
 * Locally it runs the control-room function's own request handling on the
 * store `npm start` uses; with --stack (or --url) it calls the deployed
 * function through its URL, signed with the operator's AWS credentials.
 */
import { LIST_DEFAULT, LIST_MAX } from '../../../lambda/control/contact-operations';
import { COMMON_OPTIONS, parseCommandLine, runCommand, UsageError } from '../../harness/cli';
import { connectControl } from '../control/client';
import { fieldOptions, usageLine } from '../control/command-line';
import { checkTarget, plan, printingOf, tableCommands } from '../control/table-commands';

/** The groups of the table this command serves (issues and reports: `reports`; alerts: `alerts`). */
const GROUPS = ['contacts', 'companies', 'enrichment', 'keys'] as const;
const COMMANDS = tableCommands(GROUPS);

/** Flags every command takes: where it runs. */
const WHERE = ['stack', 'region', 'url'];

const USAGE = `usage: npm run --silent control -- <what> <action> [options]

${COMMANDS.map((command) => `  ${usageLine(command, printingOf(command))}`).join('\n')}

Lists print one JSON object per line, then {"cursor": "…"} when more remain: pass it
back with --cursor, or give --all to follow every page. --limit is per page (default ${LIST_DEFAULT},
at most ${LIST_MAX}). Fields to clear: name, title, phone, page, location, company.
contacts show adds the person's bug reports and feature requests, newest first, 20 at a
time: --cursor <reportsCursor> shows the next ones. contacts erase removes a person (the
contact, its pass markers, the vendor's record of the email for every factory, the
reporter's email and name on their reports; docs/privacy.md);
contacts export-person prints everything stored about one person as one JSON object.
Keys are the keys command's (docs/keys.md), done by the control-room function: on a
deployed stack its audit line records who issued or revoked which key. keys create prints
the new key's secret once; keys list one key per line, never a secret.

where it runs:
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT), in this process
  --stack <name> [--region <region>]   a deployed stack's control-room function (its ControlRoomUrl
                                       output), each call signed with your AWS credentials
  --url <function url> [--region …]    the same, naming the function URL itself`;

const OPTIONS = {
  ...fieldOptions(COMMANDS),
  email: { type: 'string' },
  all: { type: 'boolean' },
  url: { type: 'string' },
  ...COMMON_OPTIONS,
} as const;

async function main(argv: string[]) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [what, action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  checkTarget(values);
  const run = plan(COMMANDS, what, action, values, WHERE);
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

runCommand(USAGE, main);
