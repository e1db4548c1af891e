import { SignatureV4 } from '@smithy/signature-v4';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { UrlResult } from '../../lambda/control/function-url';
import { Sha256 } from '../../local/console/control/signed-post';
import { lambdaContext, urlEvent, type ControlHandler } from './control';

/** The credentials a test signs with, and the ARN the stand-in URL reports for them. */
export const TEST_CREDENTIALS = { accessKeyId: 'AKIATESTCONTROLROOM1', secretAccessKey: 'test-secret-key-for-control-room-0000' };
export const TEST_REGION = 'eu-west-1';
export const TEST_CALLER_ARN = 'arn:aws:sts::123456789012:assumed-role/ControlRoom/cli-test';

/** What the signature of a request would be with the test credentials, at the time it claims. */
async function expectedAuthorization(req: IncomingMessage, body: string): Promise<string | undefined> {
  const date = String(req.headers['x-amz-date'] ?? '');
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(date);
  if (!match) return undefined;
  const [, y, mo, d, h, mi, s] = match;
  const signer = new SignatureV4({ service: 'lambda', region: TEST_REGION, credentials: TEST_CREDENTIALS, sha256: Sha256 });
  const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
  const signed = await signer.sign(
    {
      method: req.method ?? 'POST',
      protocol: 'http:',
      hostname: url.hostname,
      port: Number(url.port),
      path: url.pathname,
      query: {},
      headers: { host: String(req.headers.host), 'content-type': String(req.headers['content-type']) },
      body,
    },
    { signingDate: new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}Z`) },
  );
  return signed.headers.authorization;
}

/**
 * A stand-in for the control room's function URL on a free local port: it
 * checks each request's SigV4 signature against the test credentials, as
 * Lambda's AWS_IAM auth does (403 otherwise, as Lambda answers), and hands
 * the function the caller's ARN in `requestContext.authorizer.iam`.
 */
export async function startFunctionUrl(handler: ControlHandler): Promise<{ url: string; calls: string[]; close(): Promise<void> }> {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const expected = await expectedAuthorization(req, body);
        if (!expected || req.headers.authorization !== expected) {
          res.writeHead(403, { 'content-type': 'application/json' }).end(JSON.stringify({ Message: 'Forbidden' }));
          return;
        }
        calls.push(body);
        const result = (await handler(urlEvent(undefined, { raw: body, principal: TEST_CALLER_ARN }), lambdaContext())) as UrlResult;
        res.writeHead(result.statusCode, result.headers).end(result.body);
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/`,
    calls,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
