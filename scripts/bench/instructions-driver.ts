/**
 * Run under valgrind by instructions.ts (bundled by esbuild first, so no
 * TypeScript loader runs under it): `BENCH_REQUESTS` requests of one shape,
 * made either by the bare client (bare-client.ts) or by the Lambda handler
 * (lambda/api/app.ts wired as lambda/api/handler.ts wires it, logs and
 * metrics on, fed the API Gateway event the local adapter builds for the
 * same HTTP request). Everything it needs comes from the environment.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'aws-lambda';
import { createApiHandler } from '../../lambda/api/app';
import { dynamoDependencies } from '../../lambda/api/dynamo-dependencies';
import { createDocumentClient, dynamoConfigFromEnv } from '../../lambda/store/dynamo-client';
import { tableNamesFromEnv } from '../../lambda/store/schema';
import { toProxyEvent } from '../lib/http-adapter';
import { bareOperation } from './bare-client';
import { DRIVER_ENV, type DriverSetup } from './ipc';

async function main(): Promise<void> {
  const setup = JSON.parse(process.env[DRIVER_ENV] ?? '') as DriverSetup;
  // Valgrind runs the process tens of times slower: the client's usual 1 s per attempt would time out.
  const doc = createDocumentClient({ ...dynamoConfigFromEnv(), requestTimeoutMs: 120_000, connectionTimeoutMs: 120_000 });
  const deps = dynamoDependencies(doc, tableNamesFromEnv());
  let operation: () => Promise<unknown>;
  if (setup.mode === 'bare') {
    operation = bareOperation(setup.shape, deps, setup.target);
  } else {
    const handler = createApiHandler(deps);
    const { method, path, headers, body } = setup.request;
    const rawHeaders = Object.entries(headers).flat();
    if (body !== undefined) rawHeaders.push('Content-Length', String(Buffer.byteLength(body)));
    const req = { url: path, method, rawHeaders, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
    const bytes = Buffer.from(body ?? '');
    operation = async () => {
      const requestId = randomUUID();
      const context = { awsRequestId: requestId, functionName: 'contacts-api-bench', getRemainingTimeInMillis: () => 600_000 } as unknown as Context;
      const result = await handler(toProxyEvent(req, bytes, requestId), context);
      if (result.statusCode >= 300) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
    };
  }
  for (let i = 0; i < setup.requests; i += 1) await operation();
  doc.destroy();
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
