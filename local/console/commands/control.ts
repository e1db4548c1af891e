/**
 * The control room from the command line: npm run --silent control -- <what> <action> [options]
 *
 * Each command is an operation of the control room's table
 * (lambda/control/operations.ts), `contacts list` for `contacts.list`, for
 * the groups below; its flags are the operation's request fields and its
 * usage line is written from them (local/console/control/command-line.ts). What is
 * this command's own is how an answer prints (PRINTS) and a few flags of
 * its own (--email for a contact id, --all for a list).
 *
 * Locally it runs the control-room function's own request handling on the
 * store `npm start` uses; with --stack (or --url) it calls the deployed
 * function through its URL, signed with the operator's AWS credentials.
 */
import { once } from 'node:events';
import { LIST_DEFAULT, LIST_MAX } from '../../../lambda/control/contact-operations';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { contactId as contactIdOf } from '../../../lambda/contacts/domain/contact-id';
import { CONTACT_ID_PATTERN } from '../../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../../lambda/kernel/email';
import { emptySummary, type BulkSummary } from '../../../lambda/contacts/enrichment/run-bulk';
import { COMMON_OPTIONS, parseCommandLine, printJson, runCommand, UsageError } from '../../harness/cli';
import { checkedCall, connectControl, type ControlCall, type ControlClient } from '../control/client';
import { commandsOf, fieldOptions, requestFromFlags, usageLine, type CommandShape, type TableCommand } from '../control/command-line';
import { keyArgs } from '../key-args';
import { ProgressBar } from '../progress';
import { SetupError } from '../../harness/setup-error';

/** The groups of the table this command serves (issues and reports: `reports`; alerts: `alerts`). */
const GROUPS = ['contacts', 'companies', 'enrichment', 'keys'] as const;
const COMMANDS = commandsOf(CONTROL_OPERATIONS, GROUPS);

/** What runs a command once its arguments are checked. */
type Run = (client: ControlClient) => Promise<void>;

/** Flags every command takes: where it runs. */
const WHERE = ['stack', 'region', 'url'];

/** A contact is named by its id or by its email, whose id is derived as the API derives it. */
const byEmail: CommandShape['alternatives'] = {
  contactId: {
    flag: 'email',
    placeholder: 'address',
    value: (raw, request) => {
      const email = normalizeEmail(raw);
      if (!email.ok) throw new UsageError(`--email: ${email.problem}`);
      return contactIdOf(String(request.factoryId), email.email);
    },
  },
};

// stdout may be a pipe that closes early (| head): that ends the command quietly.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(0);
  throw error;
});

/** Writes to stdout, waiting when the reader is slower (an export never piles up in memory). */
async function write(text: string): Promise<void> {
  if (!process.stdout.write(text)) await once(process.stdout, 'drain');
}

/**
 * A list: each item on its own line, page after page with --all, and a
 * cursor line when more remain. The items are the answer's list, whatever
 * its name; the progress bar (a terminal only) counts them.
 */
function listing(request: ControlCall, all: boolean): Run {
  return async (client) => {
    let bar: ProgressBar | undefined;
    let cursor = request.cursor as string | undefined;
    let count = 0;
    do {
      const answer = await client.call({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      const [key, items] = (Object.entries(answer).find(([, value]) => Array.isArray(value)) ?? ['items', []]) as [string, unknown[]];
      await write(items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      count += items.length;
      cursor = answer.cursor as string | undefined;
      if (all) (bar ??= new ProgressBar(undefined, process.stderr, key)).update(count, '');
    } while (all && cursor !== undefined);
    if (bar) {
      bar.update(count, '', true);
      bar.finish();
    }
    if (cursor !== undefined) await write(`${JSON.stringify({ cursor })}\n`);
  };
}

/** An export: every page's data in turn, a count and the time on a terminal. */
function exporting(request: ControlCall): Run {
  return async (client) => {
    const bar = new ProgressBar(undefined);
    const started = Date.now();
    const elapsed = () => `${Math.round((Date.now() - started) / 100) / 10} s`;
    let cursor: string | undefined;
    let count = 0;
    do {
      const answer = await client.call({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      await write(String(answer.data));
      count += Number(answer.count);
      cursor = answer.cursor as string | undefined;
      bar.update(count, elapsed());
    } while (cursor !== undefined);
    bar.update(count, elapsed(), true);
    bar.finish();
  };
}

/** A bulk run, call after call until it is done: the totals, a line of progress on a terminal. */
function bulk(request: ControlCall): Run {
  return async (client) => {
    const { factoryId } = request;
    const bar = new ProgressBar(undefined);
    const started = Date.now();
    const total: BulkSummary = emptySummary();
    const progress = () => `${total.enriched} enriched, ${total.misses} misses, ${total.skipped} skipped`;
    let cursor: string | undefined;
    for (;;) {
      const answer = await client.call({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      const summary = answer.summary as BulkSummary;
      for (const key of Object.keys(total) as (keyof BulkSummary)[]) total[key] += summary[key];
      bar.update(total.seen, progress());
      if (answer.done === true) break;
      cursor = answer.cursor as string;
    }
    bar.update(total.seen, progress(), true);
    bar.finish();
    printJson({ factoryId, ...total, seconds: Math.round((Date.now() - started) / 100) / 10 });
  };
}

/** The answer as one JSON object. */
const printed =
  (request: ControlCall): Run =>
  async (client) =>
    printJson(await client.call(request));

/** One line per item of the answer's `key` (a list with no pages). */
const lines =
  (key: string) =>
  (request: ControlCall): Run =>
  async (client) =>
    write((((await client.call(request))[key] ?? []) as unknown[]).map((item) => `${JSON.stringify(item)}\n`).join(''));

/** A refresh: a contact that is not there is an error (exit 1), the outcome otherwise with its factory. */
const refreshed =
  (request: ControlCall): Run =>
  async (client) => {
    const result = await client.call(request);
    if (result.outcome === 'not-found') throw new SetupError(`no contact ${String(request.contactId)} in ${request.factoryId}`);
    printJson({ factoryId: request.factoryId, ...result });
  };

type Values = Record<string, unknown>;

/**
 * Erasure and export name a person by --email or --contact, one of them,
 * checked here in the command line's words (exit 2): the email itself goes
 * to the operation, which finds their reports by it. The problem only, never
 * the address, is shown.
 */
/** A person is named by one of these (checkPerson refuses both or neither). */
const PERSON = ['email', 'contactId'];

function checkPerson(values: Values): void {
  if ((values.contact === undefined) === (values.email === undefined)) throw new UsageError('name the person: --email <address> or --contact <ct_id>');
  if (values.contact !== undefined && !CONTACT_ID_PATTERN.test(String(values.contact))) {
    throw new UsageError(`--contact must be a contact id (ct_ + 16 hex), got "${String(values.contact)}"`);
  }
  if (values.email !== undefined) {
    const email = normalizeEmail(String(values.email));
    if (!email.ok) throw new UsageError(`--email: ${email.problem}`);
  }
}

/** An export of a person: every page of their reports into the one object the first page began. */
const exportingPerson =
  (request: ControlCall): Run =>
  async (client) => {
    const first = await client.call(request);
    const reports = [...((first.reports as unknown[] | undefined) ?? [])];
    let cursor = first.cursor as string | undefined;
    while (cursor !== undefined) {
      const next = await client.call({ ...request, cursor });
      reports.push(...((next.reports as unknown[] | undefined) ?? []));
      cursor = next.cursor as string | undefined;
    }
    const { cursor: _cursor, ...whole } = first;
    printJson({ ...whole, reports });
  };

/** How a command prints its answer, and what it adds to its operation's flags. */
interface Printing extends CommandShape {
  /** Checks in this command's words before the operation checks the request. */
  check?: (values: Values) => void;
  run: (request: ControlCall, values: Values) => Run;
}

/** The commands whose answer prints otherwise than as one JSON object (or a list, for an operation with a cursor). */
const PRINTS: Record<string, Omit<Printing, 'alternatives'>> = {
  'contacts.export': { drives: ['cursor'], run: exporting },
  'enrichment.bulk': { drives: ['cursor', 'pages'], run: bulk },
  'enrichment.refresh': { run: refreshed },
  'keys.list': { run: lines('keys') },
  'keys.create': { check: (values) => void keyArgs(values), run: printed },
  'contacts.erase': { check: checkPerson, oneOf: PERSON, run: printed },
  'contacts.export-person': { check: checkPerson, oneOf: PERSON, drives: ['cursor', 'limit'], run: exportingPerson },
};

/** A command's printing: its own, or a list (with --all) for an operation that takes a cursor, or one JSON object. */
function printingOf(command: TableCommand): Printing {
  const own = PRINTS[command.operation];
  // An operation that takes the email itself (erasure, export of a person) has no derived contact id for it.
  const alternatives = command.fields.some((field) => field.key === 'email') ? {} : byEmail;
  if (own) return { ...own, alternatives };
  if (command.fields.some((field) => field.key === 'cursor'))
    return { flags: ['all'], alternatives: byEmail, run: (request, values) => listing(request, values.all === true) };
  return { alternatives: byEmail, run: printed };
}

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

/** Checks the command line and returns what to run, before anything is connected. */
function plan(what: string | undefined, action: string | undefined, values: Values): Run {
  const words = `${what ?? ''} ${action ?? ''}`.trim();
  const command = COMMANDS.find((candidate) => candidate.words === words);
  if (!command) {
    if (what === undefined) throw new UsageError(`say what to do: ${GROUPS.join(', ')}, then an action`);
    throw new UsageError(`unknown command "${words}": see the list below`);
  }
  const printing = printingOf(command);
  printing.check?.(values);
  const request = checkedCall(requestFromFlags(command, printing, values, WHERE));
  return printing.run(request, values);
}

/** Where the command runs: --url must be a function URL, and not beside --stack. */
function checkTarget(values: { url?: string; stack?: string }): void {
  if (values.url !== undefined && values.stack !== undefined) throw new UsageError('give --stack or --url, not both');
  if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.url)) {
    throw new UsageError(`--url must be a function URL like https://<id>.lambda-url.<region>.on.aws/, got "${values.url}"`);
  }
}

async function main(argv: string[]) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [what, action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  checkTarget(values);
  const run = plan(what, action, values);
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

runCommand(USAGE, main);
