/**
 * What S3 checks that the embedded store (s3rver) does not, in front of it
 * (docs/source-maps.md#under-npm-start): every request's SigV4 signature,
 * from its Authorization header or, for a presigned URL, its query string,
 * computed again with the local credentials from what arrived; a presigned
 * URL past its X-Amz-Expires; and a body whose x-amz-checksum-sha256 (signed
 * into an upload URL) is not its digest. A refused request gets S3's error
 * code and status; the others go on to the store unchanged. So a presigned
 * URL edited to name another factory's object, replayed after it expired, or
 * used for other bytes is refused locally as on AWS.
 */
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash } from 'node:crypto';
import { Agent, type ClientRequest, createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { LOCAL_S3_CREDENTIALS } from '../../lambda/infrastructure/store/source-maps/s3-config';
import { NodeSha256 } from '../../lambda/infrastructure/store/source-maps/s3-map-reader';

const REGION = 'us-east-1';

/** RFC 3986 encoding of one path segment as SigV4 defines it for S3. */
function uriEncode(segment: string): string {
  let out = '';
  for (const byte of Buffer.from(segment, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The canonical URI S3 computes for a request path: what the path means (each segment decoded), encoded once. */
export const canonicalPath = (rawPath: string): string =>
  rawPath
    .split('/')
    .map((segment) => uriEncode(decodeURIComponent(segment)))
    .join('/');

/** X-Amz-Date (20261127T101500Z) as a date, or undefined. */
function amzDate(value: string | undefined): Date | undefined {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value ?? '');
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

export type Refusal = { status: number; code: string; message: string };

const signer = new SignatureV4({ service: 's3', region: REGION, credentials: LOCAL_S3_CREDENTIALS, sha256: NodeSha256, uriEscapePath: false });

/** S3's verdict on a request's signature and expiry, or undefined when it passes. */
export async function refusalOf(req: IncomingMessage, nowMs: number): Promise<Refusal | undefined> {
  const url = new URL(req.url ?? '/', 'http://local');
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => {
    query[name] = value;
  });
  const presigned = query['X-Amz-Signature'] !== undefined;
  const signedNames = (presigned ? query['X-Amz-SignedHeaders'] : /SignedHeaders=([^,\s]+)/.exec(header(req, 'authorization') ?? '')?.[1])?.split(';') ?? [];
  const date = amzDate(presigned ? query['X-Amz-Date'] : header(req, 'x-amz-date'));
  if (!date || signedNames.length === 0) return { status: 403, code: 'AccessDenied', message: 'The request is not signed.' };
  const headers = Object.fromEntries(signedNames.map((name) => [name, header(req, name) ?? '']));
  const base = {
    method: req.method ?? 'GET',
    protocol: 'http:',
    hostname: (header(req, 'host') ?? '').split(':')[0] ?? '',
    path: canonicalPath(url.pathname),
    headers,
  };
  if (presigned) {
    const expires = Number(query['X-Amz-Expires']);
    if (!Number.isInteger(expires) || expires < 1 || expires > 604_800)
      return { status: 403, code: 'AuthorizationQueryParametersError', message: 'X-Amz-Expires is not valid.' };
    if (nowMs > date.getTime() + expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
    const { 'X-Amz-Signature': signature, ...rest } = query;
    // The parameters the signer adds itself are given to it as options, the others as the query.
    const own = Object.fromEntries(
      Object.entries(rest).filter(([name]) => !['X-Amz-Algorithm', 'X-Amz-Credential', 'X-Amz-Date', 'X-Amz-Expires', 'X-Amz-SignedHeaders'].includes(name)),
    );
    // The payload's hash travels as a query parameter (UNSIGNED-PAYLOAD), kept as sent; the signer reads it from a header, not signed.
    const payload = query['X-Amz-Content-Sha256'];
    const expected = await signer.presign(
      { ...base, headers: { ...headers, ...(payload === undefined ? {} : { 'x-amz-content-sha256': payload }) }, query: own },
      {
        signingDate: date,
        expiresIn: expires,
        signableHeaders: new Set(signedNames),
        unsignableHeaders: new Set(['x-amz-content-sha256']),
        unhoistableHeaders: new Set([...signedNames, 'x-amz-content-sha256']),
      },
    );
    return expected.query?.['X-Amz-Signature'] === signature
      ? undefined
      : { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
  }
  const expected = await signer.sign({ ...base, query }, { signingDate: date });
  return expected.headers.authorization === header(req, 'authorization')
    ? undefined
    : { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided.' };
}

function refuse(res: ServerResponse, refusal: Refusal): void {
  res.writeHead(refusal.status, { 'Content-Type': 'application/xml' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${refusal.code}</Code><Message>${refusal.message}</Message></Error>`);
}

/**
 * A fresh connection to the store for each request: a kept-alive one could be reused just as the store closes it
 * for idleness (its 5-second keep-alive), and the request would fail for no fault of its own.
 */
const UPSTREAM = new Agent({ keepAlive: false });

/** Passes a request on to the store, and the store's answer back. */
function forward(upstream: URL, req: IncomingMessage, res: ServerResponse): ClientRequest {
  const forwarded = request(
    { agent: UPSTREAM, host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  forwarded.on('error', () => res.destroy());
  return forwarded;
}

/** The body of a request whole, to check its signed checksum before any byte of it reaches the store. */
const bodyOf = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
    // Paused while the signature was checked: a listener alone does not resume it.
    req.resume();
  });

/**
 * The verifying layer on a loopback port in front of the store at `target`. The signature is checked on the
 * request's line and headers, before its body is read; a body then streams on to the store, unless it carries a
 * checksum, which is checked on the whole body first (as S3 stores nothing of a body whose checksum fails).
 */
export async function startVerifyingS3(target: string, now: () => number = Date.now): Promise<{ endpoint: string; close(): Promise<void> }> {
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    req.pause();
    void (async () => {
      const refusal = await refusalOf(req, now());
      if (refusal) {
        // Answered once the body is drained, so that a client still sending reads the refusal rather than a reset.
        req.on('end', () => refuse(res, refusal));
        req.resume();
        return;
      }
      const checksum = header(req, 'x-amz-checksum-sha256');
      if (checksum === undefined) {
        req.pipe(forward(upstream, req, res));
        return;
      }
      const body = await bodyOf(req);
      if (createHash('sha256').update(body).digest('base64') !== checksum) {
        return refuse(res, { status: 400, code: 'BadDigest', message: 'The SHA256 you specified did not match the calculated checksum.' });
      }
      forward(upstream, req, res).end(body);
    })().catch((error: unknown) => refuse(res, { status: 500, code: 'InternalError', message: String(error).slice(0, 200) }));
  });
  // Idle connections kept longer than the service's clients keep theirs unused, as S3 does, so that a client never
  // sends on a connection this layer is closing (Node's default is 5 s, shorter than a busy test's pauses).
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
