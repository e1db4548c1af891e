import type { LambdaFunctionURLEventWithIAMAuthorizer } from 'aws-lambda';

/** What a function URL answers: the status, JSON headers, one JSON object. */
export interface UrlResult {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export function urlResult(status: number, body: Record<string, unknown>, headers: Record<string, string> = {}): UrlResult {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...headers },
    body: JSON.stringify(body),
  };
}

export type UrlCall =
  /** A request to run: its JSON body, and who sent it. */
  | { ok: true; request: unknown; principal: string; requestId?: string }
  /** Refused before reading the body's meaning. */
  | { ok: false; result: UrlResult; principal?: string; reason: string };

/** A function URL invocation (payload format 2.0), as opposed to a direct Invoke with a bare JSON payload. */
export function isFunctionUrlEvent(event: unknown): event is LambdaFunctionURLEventWithIAMAuthorizer {
  const context = (event as { requestContext?: { http?: { method?: unknown } } } | null)?.requestContext;
  return typeof context?.http?.method === 'string';
}

const refuse = (status: number, error: string, principal?: string, headers?: Record<string, string>): UrlCall => ({
  ok: false,
  result: urlResult(status, { error }, headers),
  principal,
  reason: error,
});

/**
 * Reads a function URL call: POST to `/`, signed with IAM (AWS_IAM auth: the
 * URL verified the SigV4 signature, and `requestContext.authorizer.iam`
 * names the caller), a JSON body. Anything else is refused with the answer
 * to give.
 */
export function readUrlCall(event: LambdaFunctionURLEventWithIAMAuthorizer): UrlCall {
  const principal = event.requestContext.authorizer?.iam?.userArn;
  if (typeof principal !== 'string' || principal === '') {
    return refuse(403, 'no IAM caller: the control room function URL must use AWS_IAM auth, and requests must be signed (SigV4)');
  }
  if (event.requestContext.http.method !== 'POST') return refuse(405, 'use POST with a JSON body', principal, { allow: 'POST' });
  if (event.rawPath !== '/') return refuse(404, `no such path ${JSON.stringify(event.rawPath)}: POST to /`, principal);
  if (event.body === undefined || event.body === '') return refuse(400, 'the body must be a JSON object with an "operation"', principal);
  let text: string;
  try {
    text = event.isBase64Encoded ? new TextDecoder('utf-8', { fatal: true }).decode(Buffer.from(event.body, 'base64')) : event.body;
  } catch {
    return refuse(400, 'the body is not UTF-8', principal);
  }
  try {
    return { ok: true, request: JSON.parse(text), principal, requestId: event.requestContext.requestId };
  } catch {
    return refuse(400, 'the body is not valid JSON', principal);
  }
}
