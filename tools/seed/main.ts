/**
 * npm run --silent seed -- --factory fac_… [--contacts N] [--companies M]
 *
 * Writes N contacts into one factory of the store the operator commands use
 * (the one `npm start` serves, or DYNAMODB_ENDPOINT), through the upsert the
 * API runs (lambda/contacts/domain/upsert-contact.ts), so every item has the shape a
 * real one has: ids, timestamps, companies and their byCompany index entries.
 * For measuring the control room on a large factory; never part of the service.
 */
import { upsertContact } from '../../lambda/contacts/domain/upsert-contact';
import { upsertBody } from '../../lambda/contacts/domain/upsert-input';
import { mapWithConcurrency } from '../../lambda/contacts/enrichment/run-bulk';
import { DynamoContactStore } from '../../lambda/infrastructure/store/contacts/dynamo-contact-store';
import { factoryIdArg, parseCommandLine, positiveIntArg, printJson, runCommand, UsageError } from '../../local/harness/cli';
import { ProgressBar } from '../../local/console/progress';
import { connectStore } from '../../local/harness/store';

const USAGE = `usage: npm run --silent seed -- --factory <fac_id> [--contacts <N>] [--companies <M>] [--concurrency <C>]

Writes N contacts (default 100000) into the factory on the local store (the one npm start
serves, or DYNAMODB_ENDPOINT), linked round-robin to M companies (default 100; 0: none),
C upserts at a time (default 16). Contacts are person<i>@seed.example: running it again
updates the same ones. Prints {"factoryId", "contacts", "companies", "seconds"}.`;

/** Upserts per progress step: the bar redraws after each batch. */
const BATCH = 500;

async function main(argv: string[]) {
  const { values, positionals } = parseCommandLine(argv, {
    factory: { type: 'string' },
    contacts: { type: 'string' },
    companies: { type: 'string' },
    concurrency: { type: 'string' },
  });
  if (positionals.length > 0) throw new UsageError(`unexpected argument "${positionals[0]}"`);
  const factoryId = factoryIdArg(values.factory);
  const count = positiveIntArg('--contacts', values.contacts, 10_000_000) ?? 100_000;
  const companies = values.companies === '0' ? 0 : (positiveIntArg('--companies', values.companies, 1_000_000) ?? 100);
  const concurrency = positiveIntArg('--concurrency', values.concurrency, 256) ?? 16;

  const store = await connectStore({}, ['contacts']);
  try {
    const contacts = new DynamoContactStore(store.doc, store.tables.contacts);
    const bar = new ProgressBar(count);
    const started = Date.now();
    for (let from = 0; from < count; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, count - from) }, (_, i) => from + i);
      await mapWithConcurrency(batch, concurrency, async (i) => {
        const body = {
          email: `person${i}@seed.example`,
          name: `Person ${i}`,
          ...(i % 3 === 0 ? { title: `Title ${i % 50}` } : {}),
          ...(companies > 0 ? { companyDomain: `company${i % companies}.example` } : {}),
        };
        await upsertContact(contacts, factoryId, upsertBody.parse(body), { now: new Date().toISOString(), creationToken: `seed-${i}-${started}` });
      });
      bar.update(from + batch.length, `${Math.round((Date.now() - started) / 1000)} s`);
    }
    bar.finish();
    printJson({ factoryId, contacts: count, companies, seconds: Math.round((Date.now() - started) / 100) / 10 });
  } finally {
    await store.close();
  }
}

runCommand(USAGE, main);
