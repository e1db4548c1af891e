import { defaultProvider } from '@aws-sdk/credential-provider-node';
import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';

type SignerOptions = ConstructorParameters<typeof SignatureV4>[0];
type Credentials = SignerOptions['credentials'];

/** SHA-256 (or its HMAC, given a secret) for the signer, from node:crypto. */
export class Sha256 {
  private hash: Hash | Hmac;

  constructor(private readonly secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = this.fresh();
  }

  update(data: Uint8Array | string): void {
    this.hash.update(typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
  }

  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }

  reset(): void {
    this.hash = this.fresh();
  }

  private fresh(): Hash | Hmac {
    if (this.secret === undefined) return createHash('sha256');
    const key =
      typeof this.secret === 'string'
        ? this.secret
        : ArrayBuffer.isView(this.secret)
          ? Buffer.from(this.secret.buffer, this.secret.byteOffset, this.secret.byteLength)
          : Buffer.from(this.secret);
    return createHmac('sha256', key);
  }
}

/** The region of a Lambda function URL (`https://<id>.lambda-url.<region>.on.aws/`), if it is one. */
export function functionUrlRegion(url: URL): string | undefined {
  return /\.lambda-url\.([a-z0-9-]+)\.on\.aws$/.exec(url.hostname)?.[1];
}

export interface SignedAnswer {
  status: number;
  text: string;
}

/**
 * POSTs a JSON body to a Lambda function URL with AWS_IAM auth, signed with
 * SigV4 (service `lambda`) by the caller's AWS credentials (the SDK's
 * default chain: environment, profile, SSO, instance role). The function
 * sees the caller's ARN. No client timeout: a bulk call may take minutes.
 */
export async function signedPost(url: URL, body: string, options: { region: string; credentials?: Credentials }): Promise<SignedAnswer> {
  const signer = new SignatureV4({
    service: 'lambda',
    region: options.region,
    credentials: options.credentials ?? defaultProvider(),
    sha256: Sha256,
  });
  const signed = await signer.sign({
    method: 'POST',
    protocol: url.protocol,
    hostname: url.hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: url.pathname,
    query: {},
    headers: { host: url.host, 'content-type': 'application/json' },
    body,
  });
  const send = url.protocol === 'http:' ? httpRequest : httpsRequest;
  return new Promise((resolve, reject) => {
    const req = send(url, { method: 'POST', headers: signed.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}
