/**
 * One request of the handler mode: the Lambda handler called in-process
 * with the API Gateway event the local adapter builds for the same HTTP
 * request (toProxyEvent), with a fresh request id and context each time.
 * Shared by the profiled loops (loop-worker.ts) and the instruction
 * counter's driver (instructions-driver.ts), so both measure the same call.
 */
import { randomUUID } from 'node:crypto';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { incomingMessageOf, lambdaContext, toProxyEvent } from '../../local/harness/http-adapter';
import type { BenchRequest } from './container';

/** Makes `request` through `handler`; rejects unless it answers 2xx. `timeoutMs`: the function's timeout, as the context reports it. */
export function handlerOperation(handler: ApiHandler, request: BenchRequest, timeoutMs: number): () => Promise<void> {
  const rawHeaders = Object.entries(request.headers).flat();
  if (request.body !== undefined) rawHeaders.push('Content-Length', String(Buffer.byteLength(request.body)));
  // Built once: toProxyEvent reads them and never changes them.
  const req = incomingMessageOf(request.method, request.path, rawHeaders);
  const body = Buffer.from(request.body ?? '');
  return async () => {
    const requestId = randomUUID();
    const result = await handler(toProxyEvent(req, body, requestId), lambdaContext(requestId, timeoutMs));
    if (result.statusCode >= 300) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
  };
}
