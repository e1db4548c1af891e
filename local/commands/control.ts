/**
 * The control room from the command line: npm run --silent control -- <what> <action> [options]
 *
 *   contacts list | show | export | clear | erase | export-person
 *   companies list | contacts
 *   enrichment refresh | bulk | usage
 *   keys list | create | revoke
 *
 * Locally it runs the control-room function's own request handling on the
 * store `npm start` uses; with --stack (or --url) it calls the deployed
 * function through its URL, signed with the operator's AWS credentials.
 */
import { once } from 'node:events';
import { contactId as contactIdOf } from '../../lambda/domain/contact-id';
import { CONTACT_ID_PATTERN } from '../../lambda/domain/contact-id-digest';
import { normalizeEmail } from '../../lambda/domain/email';
import { EXPORT_MAX, LIST_MAX } from '../../lambda/control/contact-operations';
import { emptySummary, type BulkSummary } from '../../lambda/enrichment/run-bulk';
import { COMMON_OPTIONS, factoryIdArg, parseCommandLine, positiveIntArg, printJson, runCommand, UsageError } from '../cli';
import { checkedCall as checked, connectControl, type ControlCall, type ControlClient } from '../control/client';
import { keyArgs } from '../key-args';
import { ProgressBar } from '../progress';
import { SetupError } from '../setup-error';

const USAGE = `usage: npm run --silent control -- <what> <action> [options]

  contacts list --factory <fac_id> [--enriched yes|no] [--updated-since <ISO date>] [--limit <N>] [--cursor <C>] [--all]
  contacts show --factory <fac_id> --contact <ct_id>|--email <address> [--cursor <C>]
  contacts export --factory <fac_id> [--format jsonl|csv]
  contacts clear --factory <fac_id> --contact <ct_id>|--email <address> --field <name> [--field <name> …] [--reason <text>]
  contacts erase --factory <fac_id> --email <address>|--contact <ct_id>
  contacts export-person --factory <fac_id> --email <address>|--contact <ct_id>
  companies list --factory <fac_id> [--limit <N>] [--cursor <C>] [--all]
  companies contacts --factory <fac_id> --company <co_id> [--limit <N>] [--cursor <C>] [--all]
  enrichment refresh --factory <fac_id> --contact <ct_id>|--email <address> [--pass-id <uuid>]
  enrichment bulk --factory <fac_id>
  enrichment usage --factory <fac_id>
  keys list --factory <fac_id>
  keys create --factory <fac_id> [--type secret|publishable] [--origin <origin> …] [--rate-limit <N>]
  keys revoke --factory <fac_id> --key <key_id>

contacts show adds the person's bug reports and feature requests, newest first, 20 at a
time: --cursor <reportsCursor> shows the next ones. contacts erase removes a person (the
contact, its pass markers, the reporter's email and name on their reports; docs/privacy.md);
contacts export-person prints everything stored about one person as one JSON object.
Lists print one JSON object per line, then {"cursor": "…"} when more remain: pass it
back with --cursor, or give --all to follow every page. --limit is per page (default 100,
at most ${LIST_MAX}). Fields to clear: name, title, phone, page, location, company.
Keys are the keys command's (docs/keys.md), done by the control-room function: on a
deployed stack its audit line records who issued or revoked which key. keys create prints
the new key's secret once; keys list one key per line, never a secret.

where it runs:
  (no flag)                            the store npm start uses (or DYNAMODB_ENDPOINT), in this process
  --stack <name> [--region <region>]   a deployed stack's control-room function (its ControlRoomUrl
                                       output), each call signed with your AWS credentials
  --url <function url> [--region …]    the same, naming the function URL itself`;

const OPTIONS = {
  factory: { type: 'string' },
  contact: { type: 'string' },
  email: { type: 'string' },
  company: { type: 'string' },
  enriched: { type: 'string' },
  'updated-since': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  format: { type: 'string' },
  field: { type: 'string', multiple: true },
  reason: { type: 'string' },
  'pass-id': { type: 'string' },
  type: { type: 'string' },
  origin: { type: 'string', multiple: true },
  'rate-limit': { type: 'string' },
  key: { type: 'string' },
  url: { type: 'string' },
  ...COMMON_OPTIONS,
} as const;

type Values = ReturnType<typeof parseCommandLine<typeof OPTIONS>>['values'];
type OptionName = keyof typeof OPTIONS;

/** What runs a command once its arguments are checked. */
type Run = (client: ControlClient) => Promise<void>;

/** Options every command takes: where it runs. */
const WHERE: OptionName[] = ['stack', 'region', 'url'];

/** Refuses an option the command does not take, rather than ignoring it. */
function onlyOptions(command: string, values: Values, allowed: OptionName[]): void {
  for (const name of Object.keys(values) as OptionName[]) {
    if (!allowed.includes(name) && !WHERE.includes(name)) throw new UsageError(`${command} does not take --${name}`);
  }
}


/** The contact named by --contact or --email (its id is derived, as the API does). */
function contactArg(factoryId: string, values: Values): string {
  if ((values.contact === undefined) === (values.email === undefined)) throw new UsageError('name the contact: --contact <ct_id> or --email <address>');
  if (values.contact !== undefined) {
    if (!CONTACT_ID_PATTERN.test(values.contact)) throw new UsageError(`--contact must be a contact id (ct_ + 16 hex), got "${values.contact}"`);
    return values.contact;
  }
  const email = normalizeEmail(values.email as string);
  if (!email.ok) throw new UsageError(`--email: ${email.problem}`);
  return contactIdOf(factoryId, email.email);
}

/** The person named by --email or --contact, as erasure and export take it: the email itself, so that their reports are found. */
function personArg(values: Values): { email: string } | { contactId: string } {
  if ((values.contact === undefined) === (values.email === undefined)) throw new UsageError('name the person: --email <address> or --contact <ct_id>');
  if (values.contact !== undefined) {
    if (!CONTACT_ID_PATTERN.test(values.contact)) throw new UsageError(`--contact must be a contact id (ct_ + 16 hex), got "${values.contact}"`);
    return { contactId: values.contact };
  }
  const email = normalizeEmail(values.email as string);
  // The problem only, never the address: it may be on its way to being erased.
  if (!email.ok) throw new UsageError(`--email: ${email.problem}`);
  return { email: email.email };
}

/** An export of a person: every page of their reports into the one object the first page began. */
function exportingPerson(request: ControlCall): Run {
  return async (client) => {
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
}

function enrichedArg(value: string | undefined): boolean | undefined {
  if (value === undefined) return undefined;
  if (value === 'yes' || value === 'no') return value === 'yes';
  throw new UsageError(`--enriched must be yes or no, got "${value}"`);
}

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
 * cursor line when more remain. The progress bar (a terminal only) counts items.
 */
function listing(request: ControlCall, key: 'contacts' | 'companies', all: boolean): Run {
  return async (client) => {
    const bar = new ProgressBar(undefined, process.stderr, key);
    let cursor = request.cursor as string | undefined;
    let count = 0;
    do {
      const answer = await client.call({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      const items = answer[key] as unknown[];
      await write(items.map((item) => `${JSON.stringify(item)}\n`).join(''));
      count += items.length;
      cursor = answer.cursor as string | undefined;
      if (all) bar.update(count, '');
    } while (all && cursor !== undefined);
    if (all) {
      bar.update(count, '', true);
      bar.finish();
    }
    if (cursor !== undefined) await write(`${JSON.stringify({ cursor })}\n`);
  };
}

function exporting(request: ControlCall): Run {
  return async (client) => {
    const bar = new ProgressBar(undefined);
    const started = Date.now();
    let cursor: string | undefined;
    let count = 0;
    do {
      const answer = await client.call({ ...request, ...(cursor === undefined ? {} : { cursor }) });
      await write(String(answer.data));
      count += Number(answer.count);
      cursor = answer.cursor as string | undefined;
      bar.update(count, `${Math.round((Date.now() - started) / 100) / 10} s`);
    } while (cursor !== undefined);
    bar.update(count, `${Math.round((Date.now() - started) / 100) / 10} s`, true);
    bar.finish();
  };
}

function bulk(factoryId: string): Run {
  return async (client) => {
    const bar = new ProgressBar(undefined);
    const started = Date.now();
    const total: BulkSummary = emptySummary();
    let cursor: string | undefined;
    for (;;) {
      const answer = await client.call({ operation: 'enrichment.bulk', factoryId, ...(cursor === undefined ? {} : { cursor }) });
      const summary = answer.summary as BulkSummary;
      for (const key of Object.keys(total) as (keyof BulkSummary)[]) total[key] += summary[key];
      bar.update(total.seen, `${total.enriched} enriched, ${total.misses} misses, ${total.skipped} skipped`);
      if (answer.done === true) break;
      cursor = answer.cursor as string;
    }
    bar.update(total.seen, `${total.enriched} enriched, ${total.misses} misses, ${total.skipped} skipped`, true);
    bar.finish();
    printJson({ factoryId, ...total, seconds: Math.round((Date.now() - started) / 100) / 10 });
  };
}

/** Checks the command line and returns what to run, before anything is connected. */
function plan(what: string | undefined, action: string | undefined, values: Values): Run {
  const command = `${what ?? ''} ${action ?? ''}`.trim();
  const factoryId = () => factoryIdArg(values.factory);
  const limit = () => positiveIntArg('--limit', values.limit, LIST_MAX);
  const page = () => ({ ...(limit() === undefined ? {} : { limit: limit() }), ...(values.cursor === undefined ? {} : { cursor: values.cursor }) });
  switch (command) {
    case 'contacts list': {
      onlyOptions(command, values, ['factory', 'enriched', 'updated-since', 'limit', 'cursor', 'all']);
      const enriched = enrichedArg(values.enriched);
      const request = checked({
        operation: 'contacts.list',
        factoryId: factoryId(),
        ...(enriched === undefined ? {} : { enriched }),
        ...(values['updated-since'] === undefined ? {} : { updatedSince: values['updated-since'] }),
        ...page(),
      });
      return listing(request, 'contacts', values.all === true);
    }
    case 'contacts show': {
      onlyOptions(command, values, ['factory', 'contact', 'email', 'cursor']);
      const request = checked({
        operation: 'contacts.show',
        factoryId: factoryId(),
        contactId: contactArg(factoryId(), values),
        ...(values.cursor === undefined ? {} : { reportsCursor: values.cursor }),
      });
      return async (client) => printJson(await client.call(request));
    }
    case 'contacts erase': {
      onlyOptions(command, values, ['factory', 'contact', 'email']);
      const request = checked({ operation: 'contacts.erase', factoryId: factoryId(), ...personArg(values) });
      return async (client) => printJson(await client.call(request));
    }
    case 'contacts export-person': {
      onlyOptions(command, values, ['factory', 'contact', 'email']);
      return exportingPerson(checked({ operation: 'contacts.export-person', factoryId: factoryId(), ...personArg(values) }));
    }
    case 'contacts export': {
      onlyOptions(command, values, ['factory', 'format', 'limit']);
      const format = values.format ?? 'jsonl';
      if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format must be jsonl or csv, got "${format}"`);
      const rows = positiveIntArg('--limit', values.limit, EXPORT_MAX);
      return exporting(checked({ operation: 'contacts.export', factoryId: factoryId(), format, ...(rows === undefined ? {} : { limit: rows }) }));
    }
    case 'contacts clear': {
      onlyOptions(command, values, ['factory', 'contact', 'email', 'field', 'reason']);
      if (!values.field || values.field.length === 0) throw new UsageError('say what to clear: --field <name> (name, title, phone, page, location, company)');
      const request = checked({
        operation: 'contacts.clear',
        factoryId: factoryId(),
        contactId: contactArg(factoryId(), values),
        fields: values.field,
        ...(values.reason === undefined ? {} : { reason: values.reason }),
      });
      return async (client) => printJson(await client.call(request));
    }
    case 'companies list': {
      onlyOptions(command, values, ['factory', 'limit', 'cursor', 'all']);
      return listing(checked({ operation: 'companies.list', factoryId: factoryId(), ...page() }), 'companies', values.all === true);
    }
    case 'companies contacts': {
      onlyOptions(command, values, ['factory', 'company', 'limit', 'cursor', 'all']);
      if (values.company === undefined) throw new UsageError('companies contacts needs --company <co_id> (from companies list, or a contact\'s companyId)');
      const request = checked({ operation: 'companies.contacts', factoryId: factoryId(), companyId: values.company, ...page() });
      return listing(request, 'contacts', values.all === true);
    }
    case 'enrichment refresh': {
      onlyOptions(command, values, ['factory', 'contact', 'email', 'pass-id']);
      const request = checked({
        operation: 'enrichment.refresh',
        factoryId: factoryId(),
        contactId: contactArg(factoryId(), values),
        ...(values['pass-id'] === undefined ? {} : { passId: values['pass-id'] }),
      });
      return async (client) => {
        const result = await client.call(request);
        if (result.outcome === 'not-found') throw new SetupError(`no contact ${request.contactId} in ${request.factoryId}`);
        printJson({ factoryId: request.factoryId, ...result });
      };
    }
    case 'enrichment bulk':
      onlyOptions(command, values, ['factory']);
      return bulk(checked({ operation: 'enrichment.bulk', factoryId: factoryId() }).factoryId);
    case 'enrichment usage': {
      onlyOptions(command, values, ['factory']);
      const request = checked({ operation: 'enrichment.usage', factoryId: factoryId() });
      return async (client) => printJson(await client.call(request));
    }
    case 'keys list': {
      onlyOptions(command, values, ['factory']);
      const request = checked({ operation: 'keys.list', factoryId: factoryId() });
      return async (client) => write((((await client.call(request)).keys ?? []) as unknown[]).map((key) => `${JSON.stringify(key)}\n`).join(''));
    }
    case 'keys create': {
      onlyOptions(command, values, ['factory', 'type', 'origin', 'rate-limit']);
      const { type, origins, rateLimit } = keyArgs(values);
      const request = checked({
        operation: 'keys.create',
        factoryId: factoryId(),
        type,
        ...(origins === undefined ? {} : { origins }),
        ...(rateLimit === undefined ? {} : { rateLimit }),
      });
      return async (client) => printJson(await client.call(request));
    }
    case 'keys revoke': {
      onlyOptions(command, values, ['factory', 'key']);
      if (values.key === undefined) throw new UsageError('keys revoke needs --key <key_id> (from keys list)');
      const request = checked({ operation: 'keys.revoke', factoryId: factoryId(), keyId: values.key });
      return async (client) => printJson(await client.call(request));
    }
    default:
      if (what === undefined) throw new UsageError('say what to do: contacts, companies, enrichment or keys, then an action');
      throw new UsageError(`unknown command "${command}": see the list below`);
  }
}

async function main(argv: string[]) {
  const { values, positionals } = parseCommandLine(argv, OPTIONS);
  const [what, action, extra] = positionals;
  if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
  if (values.url !== undefined && values.stack !== undefined) throw new UsageError('give --stack or --url, not both');
  if (values.url !== undefined && !/^https?:\/\/[^/]+\/?$/.test(values.url)) {
    throw new UsageError(`--url must be a function URL like https://<id>.lambda-url.<region>.on.aws/, got "${values.url}"`);
  }
  const run = plan(what, action, values);
  const client = await connectControl({ stack: values.stack, region: values.region, url: values.url });
  try {
    await run(client);
  } finally {
    await client.close();
  }
}

runCommand(USAGE, main);
