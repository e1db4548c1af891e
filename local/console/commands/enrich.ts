/**
 * Enrichment for operators: npm run --silent enrich -- <what> [options]
 *
 *   --factory fac_… --contact ct_…    refresh one contact (a deliberate re-enrichment)
 *   --factory fac_… --email a@b.co    the same, naming the contact by email
 *   --factory fac_… --all             bulk: every contact not enriched yet
 *   load-dataset FILE                 load the vendor reference dataset (JSON Lines)
 *   usage --factory fac_…             billed passes per month
 *
 * The same code the enrichment Lambda runs, on the local store, or on a
 * deployed stack's tables with --stack <name> [--region <region>].
 */
import { existsSync, statSync } from 'node:fs';
import { contactId } from '../../../lambda/contacts/domain/contact-id';
import { CONTACT_ID_PATTERN } from '../../../lambda/kernel/contact-id-digest';
import { normalizeEmail } from '../../../lambda/kernel/email';
import { platformName } from '../../../lambda/contacts/enrichment/config';
import { DynamoEnrichmentStore } from '../../../lambda/infrastructure/store/contacts/dynamo-enrichment-store';
import { runBulk } from '../../../lambda/contacts/enrichment/run-bulk';
import { runPass, type EnrichmentContext } from '../../../lambda/contacts/enrichment/run-pass';
import { configuredSources } from '../../../lambda/contacts/enrichment/sources/sources-wiring';
import { COMMON_OPTIONS, factoryIdArg, parseCommandLine, printJson, runCommand, UsageError } from '../../harness/cli';
import { loadDataset } from '../load-dataset';
import { SuppressionKeys } from '../../../lambda/contacts/domain/vendor-suppression';
import { DynamoSuppressionSecret } from '../../../lambda/infrastructure/store/keys/dynamo-person-secret';
import { ReferenceWriter } from '../../../lambda/infrastructure/store/reference/reference-writer';
import { ProgressBar } from '../progress';
import { SetupError } from '../../harness/setup-error';
import { connectStore, type StoreConnection } from '../../harness/store';

const USAGE = `usage: npm run --silent enrich -- <what> [options]

  --factory <fac_id> --contact <ct_id>   refresh one contact (runs even if it was enriched before)
  --factory <fac_id> --email <address>   the same, naming the contact by email
  --factory <fac_id> --all               enrich every contact not enriched yet (progress on a terminal)
  load-dataset <file>                    load the vendor reference dataset (JSON Lines keyed by email)
  usage --factory <fac_id>               billed enrichment passes per month

options:
  --stack <name> [--region <region>]     work on a deployed stack's tables instead of the local store`;

function enrichmentContext(store: StoreConnection): EnrichmentContext {
  return {
    store: new DynamoEnrichmentStore(store.doc, store.tables.contacts),
    sources: configuredSources(store.doc, store.tables.reference),
    // A deployed stack's own name when working on it; locally PLATFORM_NAME or the default.
    provider: store.platformName ?? platformName(),
  };
}

async function main(argv: string[]) {
  const parsed = parseCommandLine(argv, {
    factory: { type: 'string' },
    contact: { type: 'string' },
    email: { type: 'string' },
    all: { type: 'boolean' },
    ...COMMON_OPTIONS,
  });
  const { values, positionals } = parsed;
  const [command, ...rest] = positionals;
  const target = { stack: values.stack, region: values.region };

  if (command === 'load-dataset') {
    const [file, extra] = rest;
    if (!file) throw new UsageError('load-dataset needs the file: enrich -- load-dataset people.jsonl');
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}"`);
    if (!existsSync(file) || !statSync(file).isFile()) throw new SetupError(`no file at ${file}`);
    // The keys table holds the suppression secret: erased people are recognized by its keyed hash, never by their email.
    const store = await connectStore(target, ['reference', 'keys']);
    try {
      const tty = process.stderr.isTTY;
      const writer = new ReferenceWriter(store.doc, store.tables.reference, new SuppressionKeys(new DynamoSuppressionSecret(store.doc, store.tables.keys)));
      const summary = await loadDataset(writer, file, (s) => {
        if (tty) process.stderr.write(`\rloaded ${s.loaded} records\u001b[K`);
      });
      if (tty) process.stderr.write('\n');
      printJson({ file, ...summary });
      if (summary.suppressed > 0) {
        const people = summary.suppressed === 1 ? '1 person' : `${summary.suppressed} people`;
        process.stderr.write(`left out ${people} of the file: erased on request, they stay out of every load (docs/privacy.md#the-vendors-record)\n`);
      }
      // A file with no person in it is the wrong file or a broken export, not a load: say so, and fail a script that ran it.
      // loaded + suppressed: every distinct email of a valid line.
      if (summary.loaded + summary.suppressed === 0) {
        process.stderr.write(
          `error: no valid record in ${file}${summary.invalid > 0 ? ` (${summary.invalid} invalid ${summary.invalid === 1 ? 'line' : 'lines'}: see "problems")` : ': the file is empty or holds only blank lines'}\n`,
        );
        process.exitCode = 1;
      }
    } finally {
      await store.close();
    }
    return;
  }

  if (command === 'usage') {
    const factoryId = factoryIdArg(values.factory);
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    const store = await connectStore(target, ['contacts']);
    try {
      printJson({ factoryId, periods: await new DynamoEnrichmentStore(store.doc, store.tables.contacts).usage(factoryId) });
    } finally {
      await store.close();
    }
    return;
  }

  if (command !== undefined) throw new UsageError(`unknown command "${command}": use --contact, --email, --all, load-dataset or usage`);
  const factoryId = factoryIdArg(values.factory);
  const chosen = [values.contact !== undefined, values.email !== undefined, values.all === true].filter(Boolean).length;
  if (chosen !== 1) throw new UsageError('say what to enrich: one of --contact <ct_id>, --email <address> or --all');
  let single: string | undefined;
  if (values.contact !== undefined) {
    if (!CONTACT_ID_PATTERN.test(values.contact)) throw new UsageError(`--contact must be a contact id (ct_ + 16 hex), got "${values.contact}"`);
    single = values.contact;
  } else if (values.email !== undefined) {
    const email = normalizeEmail(values.email);
    if (!email.ok) throw new UsageError(`--email: ${email.problem}`);
    single = contactId(factoryId, email.email);
  }

  const store = await connectStore(target, ['contacts', 'reference']);
  try {
    const context = enrichmentContext(store);
    if (single !== undefined) {
      const result = await runPass(context, factoryId, single, { bulk: false });
      if (result.outcome === 'not-found') throw new SetupError(`no contact ${single} in ${factoryId}`);
      printJson({ factoryId, ...result });
      return;
    }
    const bar = new ProgressBar(process.stderr.isTTY ? await context.store.countContacts(factoryId) : 0);
    const started = Date.now();
    const { summary } = await runBulk(context, factoryId, {
      onPage: (s) => bar.update(s.seen, `${s.enriched} enriched, ${s.misses} misses, ${s.skipped} skipped`),
    });
    bar.finish();
    printJson({ factoryId, ...summary, seconds: Math.round((Date.now() - started) / 100) / 10 });
  } finally {
    await store.close();
  }
}

runCommand(USAGE, main);
