/**
 * The commands read from the control room's operation table, as `control`
 * and `keys` both run them (local/console/commands/): one implementation of
 * each command, so `keys -- list` and `control -- keys list` check, run and
 * print alike, wherever the operations run (in this process or through the
 * deployed function: client.ts). What is a command's own is how an answer
 * prints (PRINTS) and a few flags of its own (--email for a contact id,
 * --all for a list).
 */
import { once } from 'node:events';
import { CONTROL_OPERATIONS } from '../../../lambda/control/operations';
import { contactId as contactIdOf } from '../../../lambda/contacts/domain/contact-id';
import { CONTACT_ID_PATTERN } from '../../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../../lambda/kernel/email';
import { emptySummary, type BulkSummary } from '../../../lambda/contacts/enrichment/run-bulk';
import { dsnFor } from '../../../lambda/ingest/sentry/dsn';
import { printJson, UsageError } from '../../harness/cli';
import { SetupError } from '../../harness/setup-error';
import { checkedCall, type ControlCall, type ControlClient } from './client';
import { commandsOf, inFlagWords, requestFromFlags, type CommandShape, type TableCommand } from './command-line';
import { keyArgs } from '../key-args';
import { ProgressBar } from '../progress';

/** What runs a command once its arguments are checked. */
export type Run = (client: ControlClient) => Promise<void>;

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

/** One line per item of the answer's `key` (a list with no pages the contract prints one JSON object a line: `companies issues`). */
const lines =
  (key: string) =>
  (request: ControlCall): Run =>
  async (client) =>
    write((((await client.call(request))[key] ?? []) as unknown[]).map((item) => `${JSON.stringify(item)}\n`).join(''));

/** The answer's `key` as one JSON array (a list with no pages: `keys list`, as the local contract prints it). */
const array =
  (key: string) =>
  (request: ControlCall): Run =>
  async (client) =>
    printJson(((await client.call(request))[key] ?? []) as unknown[]);

/** A new key, shown once; a publishable key with its Sentry DSN when the client knows where the API is (docs/sentry-sdks.md). */
const newKey =
  (request: ControlCall): Run =>
  async (client) => {
    const created = await client.call(request);
    const dsn = created.type === 'publishable' && client.apiUrl ? { dsn: dsnFor(client.apiUrl, String(created.key), String(created.keyId)) } : {};
    printJson({ ...created, ...dsn });
  };

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

/** An erasure may also name the person by the person key an earlier erasure audited (docs/runbook.md#after-a-restore-erase-again). */
const ERASED_PERSON = [...PERSON, 'personKey'];

function checkErasedPerson(values: Values): void {
  if (values['person-key'] === undefined) {
    checkPerson(values);
    return;
  }
  if (values.contact !== undefined || values.email !== undefined)
    throw new UsageError('name the person: --email <address>, --contact <ct_id> or --person-key <person_key>, one of them');
}

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
  'keys.list': { run: array('keys') },
  'companies.issues': { run: lines('issues') },
  'keys.create': { check: (values) => void keyArgs(values), run: newKey },
  'contacts.erase': { check: checkErasedPerson, oneOf: ERASED_PERSON, run: printed },
  'contacts.export-person': { check: checkPerson, oneOf: PERSON, drives: ['cursor', 'limit'], run: exportingPerson },
};

/** A command's printing: its own, or a list (with --all) for an operation that takes a cursor, or one JSON object. */
export function printingOf(command: TableCommand): Printing {
  const own = PRINTS[command.operation];
  // An operation that takes the email itself (erasure, export of a person) has no derived contact id for it.
  const alternatives = command.fields.some((field) => field.key === 'email') ? {} : byEmail;
  if (own) return { ...own, alternatives };
  if (command.fields.some((field) => field.key === 'cursor'))
    return { flags: ['all'], alternatives: byEmail, run: (request, values) => listing(request, values.all === true) };
  return { alternatives: byEmail, run: printed };
}

/** The commands of these groups of the table, in its order. */
export const tableCommands = (groups: readonly string[]): TableCommand[] => commandsOf(CONTROL_OPERATIONS, groups);

/**
 * Checks a command line (`what action --flags`) against `commands` and
 * returns what to run, before anything is connected. `where` are the flags
 * every command takes (where it runs).
 */
export function plan(commands: readonly TableCommand[], what: string | undefined, action: string | undefined, values: Values, where: readonly string[]): Run {
  const words = `${what ?? ''} ${action ?? ''}`.trim();
  const command = commands.find((candidate) => candidate.words === words);
  if (!command) {
    const groups = [...new Set(commands.map((candidate) => candidate.words.split(' ')[0]))];
    if (what === undefined) throw new UsageError(`say what to do: ${groups.join(', ')}, then an action`);
    const actions = commands.filter((candidate) => candidate.words.startsWith(`${what} `)).map((candidate) => candidate.words.slice(what.length + 1));
    if (actions.length > 0 && action === undefined) throw new UsageError(`${what} needs an action: ${actions.join(', ')}`);
    throw new UsageError(`unknown command "${words}": ${actions.length > 0 ? `${what} takes ${actions.join(', ')}` : 'see the list below'}`);
  }
  const printing = printingOf(command);
  printing.check?.(values);
  const request = checkedCall(requestFromFlags(command, printing, values, where), inFlagWords(command));
  return printing.run(request, values);
}

/** Where the command runs: --url must be a function URL, and not beside --stack. */
export function checkTarget(values: { url?: string; stack?: string }): void {
  if (values.url !== undefined && values.stack !== undefined) throw new UsageError('give --stack or --url, not both');
  if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.url)) {
    throw new UsageError(`--url must be a function URL like https://<id>.lambda-url.<region>.on.aws/, got "${values.url}"`);
  }
}
