/**
 * Run under valgrind by instructions.ts (bundled by esbuild first, so no
 * TypeScript loader runs under it): the DriverSetup's `requests` requests of one shape,
 * made either by the bare client (bare-client.ts) or by the Lambda handler
 * (lambda/infrastructure/http/pipeline.ts wired as lambda/contacts/api/contacts-entry.ts wires it, logs and
 * metrics on, fed the API Gateway event the local adapter builds for the
 * same HTTP request). Everything it needs comes from the environment.
 */
import { createContactsHandler } from '../../lambda/contacts/api/routes';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { createDocumentClient, dynamoConfigFromEnv } from '../../lambda/infrastructure/store/dynamo-client';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { bareOperation } from './bare-client';
import { handlerOperation } from './handler-operation';
import { DRIVER_ENV, type DriverSetup } from './ipc';

async function main(): Promise<void> {
  const setup = JSON.parse(process.env[DRIVER_ENV] ?? '') as DriverSetup;
  // Valgrind runs the process tens of times slower: the client's usual 1 s per attempt would time out.
  const doc = createDocumentClient({ ...dynamoConfigFromEnv(), requestTimeoutMs: 120_000, connectionTimeoutMs: 120_000 });
  const deps = dynamoDependencies(doc, tableNamesFromEnv());
  // In handler mode, a function timeout to match valgrind's pace (the context reports it).
  const operation: () => Promise<unknown> =
    setup.mode === 'bare' ? bareOperation(setup.shape, deps, setup.target) : handlerOperation(createContactsHandler(deps), setup.request, 600_000);
  for (let i = 0; i < setup.requests; i += 1) await operation();
  doc.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
