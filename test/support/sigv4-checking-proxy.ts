import { SignatureV4 } from '@smithy/signature-v4';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { NodeSha256 } from '../../lambda/infrastructure/store/source-maps/s3-map-reader';
import { freePort } from '../../local/harness/ports';
import { canonicalPath } from '../../local/harness/s3-verifying';

/**
 * A stand-in for S3's signature check in front of the embedded store (s3rver checks none): each request's
 * SigV4 signature is computed again from what arrived — the path as S3 canonicalizes it (each segment decoded,
 * then encoded byte by byte, all but A-Z a-z 0-9 - _ . ~), the headers the request says it signed, its
 * X-Amz-Date — with @smithy/signature-v4 and the credentials the caller should hold. A request whose
 * Authorization differs, or whose session token is not the expected one, is answered 403 as S3 answers it;
 * the others go on to the store.
 */

export interface Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface Checked {
  method: string;
  path: string;
  /** The headers the request signed, as its Authorization names them. */
  signedHeaders: string[];
  verdict: 'ok' | 'SignatureDoesNotMatch' | 'InvalidToken' | 'MissingSecurityHeader';
}

/** X-Amz-Date (20261127T101500Z) as a date. */
function amzDate(value: string): Date {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  if (!match) throw new Error(`not an X-Amz-Date: ${value}`);
  const [, y, mo, d, h, mi, s] = match.map(Number) as number[];
  return new Date(Date.UTC(y as number, (mo as number) - 1, d, h, mi, s));
}

const header = (req: IncomingMessage, name: string): string | undefined => {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(',') : value;
};

/** The verdict S3 would give the request's signature. */
async function check(req: IncomingMessage, credentials: Credentials, region: string): Promise<Checked> {
  const url = new URL(req.url ?? '/', 'http://x');
  const authorization = header(req, 'authorization') ?? '';
  const signedHeaders = /SignedHeaders=([^,\s]+)/.exec(authorization)?.[1]?.split(';') ?? [];
  const seen = { method: req.method ?? 'GET', path: url.pathname, signedHeaders };
  const date = header(req, 'x-amz-date');
  if (!authorization.startsWith('AWS4-HMAC-SHA256 ') || !date) return { ...seen, verdict: 'MissingSecurityHeader' };
  if (credentials.sessionToken !== undefined && header(req, 'x-amz-security-token') !== credentials.sessionToken) return { ...seen, verdict: 'InvalidToken' };
  const signer = new SignatureV4({ service: 's3', region, credentials, sha256: NodeSha256, uriEscapePath: false });
  const headers = Object.fromEntries(signedHeaders.map((name) => [name, header(req, name) ?? '']));
  const query: Record<string, string> = {};
  url.searchParams.forEach((value, name) => (query[name] = value));
  const expected = await signer.sign(
    { method: seen.method, protocol: 'http:', hostname: (header(req, 'host') ?? '').split(':')[0] ?? '', path: canonicalPath(url.pathname), query, headers },
    { signingDate: amzDate(date) },
  );
  return { ...seen, verdict: expected.headers.authorization === authorization ? 'ok' : 'SignatureDoesNotMatch' };
}

/** The proxy on a free loopback port, forwarding what passes to `target`; `checked` lists every request's verdict. */
export async function startSigV4CheckingProxy(options: {
  target: string;
  credentials: Credentials;
  region: string;
}): Promise<{ endpoint: string; checked: Checked[]; close(): Promise<void> }> {
  const checked: Checked[] = [];
  const target = new URL(options.target);
  const server: Server = createServer((req, res) => {
    void check(req, options.credentials, options.region).then(
      (result) => {
        checked.push(result);
        if (result.verdict !== 'ok') {
          req.resume();
          res.writeHead(403, { 'Content-Type': 'application/xml' });
          res.end(`<?xml version="1.0" encoding="UTF-8"?><Error><Code>${result.verdict}</Code><Message>refused by the test's SigV4 check</Message></Error>`);
          return;
        }
        const upstream = request(
          { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on('error', () => res.destroy());
        req.pipe(upstream);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain' });
        res.end(String(error));
      },
    );
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', () => resolve()));
  return {
    endpoint: `http://127.0.0.1:${port}`,
    checked,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
