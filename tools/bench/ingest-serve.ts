/**
 * The host (both APIs) behind the local HTTP adapter in a process of its
 * own, for `npm run bench:ingest`'s throughput run: autocannon then never
 * shares this process's CPU. Reads DYNAMODB_ENDPOINT and the table names
 * from the environment, as the Lambdas do; prints `listening <port>`.
 * Every autocannon request comes from one address, so the per-address limits
 * are raised out of reach: the limiter's call is still made, as in
 * production, but never refuses.
 */
import './env';
import { createContactsHandler } from '../../lambda/contacts/api/routes';
import { createIngestHandler } from '../../lambda/ingest/api/routes';
import { containerDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { ingestDynamoDependencies } from '../../lambda/ingest/api/ingest-wiring';
import { ratePolicy } from '../../lambda/ingest/limits';
import { createDocumentClient, dynamoConfigFromEnv } from '../../lambda/infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { hostHandler } from '../../local/harness/host';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';

async function main(): Promise<void> {
  const wide = ratePolicy(1_000_000_000, 60_000);
  const ingest = ingestDynamoDependencies(createDocumentClient(dynamoConfigFromEnv()), tableNamesFromEnv(), {
    addressLimits: { requests: wide, featureRequests: wide },
  });
  const server = createHttpAdapter(hostHandler({ contacts: createContactsHandler(containerDependencies()), ingest: createIngestHandler(ingest) }));
  const port = await listen(server, 0, '127.0.0.1');
  process.stdout.write(`listening ${port}\n`);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
