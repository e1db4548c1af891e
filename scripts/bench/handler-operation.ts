/**
 * One request of the handler mode: the Lambda handler called in-process
 * with the API Gateway event the local adapter builds for the same HTTP
 * request (toProxyEvent), with a fresh request id and context each time.
 * Shared by the throughput loops (loop-worker.ts) and the instruction
 * counter's driver (instructions-driver.ts), so both measure the same call.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Context } from 'aws-lambda';
import type { ApiHandler } from '../../lambda/api/app';
import { toProxyEvent } from '../lib/http-adapter';
import type { BenchRequest } from './container';

/** What the local adapter reads of a request, for toProxyEvent: the same event a real request gets. */
function fakeRequest(request: BenchRequest): IncomingMessage {
  const rawHeaders = Object.entries(request.headers).flat();
  if (request.body !== undefined) rawHeaders.push('Content-Length', String(Buffer.byteLength(request.body)));
  return { url: request.path, method: request.method, rawHeaders, httpVersion: '1.1', socket: { remoteAddress: '127.0.0.1' } } as unknown as IncomingMessage;
}

function lambdaContext(requestId: string, timeoutMs: number): Context {
  const deadline = Date.now() + timeoutMs;
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName: 'contacts-api-bench',
    functionVersion: '$LATEST',
    invokedFunctionArn: 'arn:aws:lambda:local:000000000000:function:contacts-api-bench',
    memoryLimitInMB: '1024',
    awsRequestId: requestId,
    logGroupName: 'bench',
    logStreamName: 'bench',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

/** Makes `request` through `handler`; rejects unless it answers 2xx. `timeoutMs`: the function's timeout, as the context reports it. */
export function handlerOperation(handler: ApiHandler, request: BenchRequest, timeoutMs: number): () => Promise<void> {
  // Built once: toProxyEvent reads them and never changes them.
  const req = fakeRequest(request);
  const body = Buffer.from(request.body ?? '');
  return async () => {
    const requestId = randomUUID();
    const result = await handler(toProxyEvent(req, body, requestId), lambdaContext(requestId, timeoutMs));
    if (result.statusCode >= 300) throw new Error(`handler answered ${result.statusCode}: ${result.body}`);
  };
}
