/**
 * The injected DynamoDB delay of the throughput run's helper processes
 * (serve.ts, loop-worker.ts), given to them in their environment. Without
 * one they use the Lambda entry point and its client untouched; with one,
 * the delay middleware (delay.ts) goes on the client from outside, as in
 * container.ts, on the service's side and on the bare client's alike.
 */
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createContactsHandler } from '../../lambda/contacts/api/routes';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { createDocumentClient, createDynamoClient, documentClientOf, dynamoConfigFromEnv } from '../../lambda/infrastructure/store/dynamo-client';
import { dynamoDependencies } from '../../lambda/contacts/api/contacts-wiring';
import { tableNamesFromEnv } from '../../lambda/infrastructure/store/schema';
import { installDelay } from './delay';

/** Milliseconds added to each DynamoDB call of a helper process; read by nothing in lambda/. */
export const DELAY_ENV = 'BENCH_DYNAMO_DELAY_MS';

export function injectedDelayMs(env: NodeJS.ProcessEnv = process.env): number {
  const ms = Number(env[DELAY_ENV] ?? 0);
  if (!Number.isFinite(ms) || ms < 0) throw new Error(`${DELAY_ENV} must be a number of milliseconds, got "${env[DELAY_ENV]}"`);
  return ms;
}

/** The document client lambda/contacts/api/contacts-entry.ts makes (from the environment), with the delay on it when there is one. */
export function benchDocumentClient(delayMs: number): DynamoDBDocumentClient {
  if (delayMs === 0) return createDocumentClient(dynamoConfigFromEnv());
  const client = createDynamoClient(dynamoConfigFromEnv());
  installDelay(client, { ms: delayMs });
  return documentClientOf(client);
}

/**
 * The Lambda entry point. With a delay, lambda/contacts/api/contacts-entry.ts rebuilt line
 * for line (one client from the environment, one contact store, one key
 * authorizer) around a client carrying it: the entry point keeps its client
 * to itself, and nothing of the benchmark goes into lambda/.
 */
export async function entryPoint(delayMs: number): Promise<ApiHandler> {
  if (delayMs === 0) return ((await import('../../lambda/contacts/api/contacts-entry')) as { handler: ApiHandler }).handler;
  const tables = tableNamesFromEnv();
  const doc = benchDocumentClient(delayMs);
  return createContactsHandler(dynamoDependencies(doc, tables));
}
