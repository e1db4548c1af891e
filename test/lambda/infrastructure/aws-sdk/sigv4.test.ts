import { SignatureV4 } from '@smithy/signature-v4';
import { createHash, createHmac, type Hash, type Hmac } from 'node:crypto';
import { amzDate, signPost } from '../../../../lambda/infrastructure/aws-sdk/sigv4';

const bytes = (data: string | ArrayBuffer | ArrayBufferView): string | Uint8Array =>
  typeof data === 'string' ? data : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);

/** SHA-256 (an HMAC with a secret) as the SDK signer asks for it. */
class Sha256 {
  private readonly hash: Hash | Hmac;
  constructor(secret?: string | ArrayBuffer | ArrayBufferView) {
    this.hash = secret === undefined ? createHash('sha256') : createHmac('sha256', bytes(secret));
  }
  update(data: string | ArrayBuffer | ArrayBufferView): void {
    this.hash.update(bytes(data));
  }
  async digest(): Promise<Uint8Array> {
    return this.hash.digest();
  }
}

/** What @smithy/signature-v4 (the SDK's signer) makes of the same POST. */
async function smithySigned(request: Parameters<typeof signPost>[0], at: Date): Promise<Record<string, string>> {
  const signer = new SignatureV4({ service: request.service, region: request.region, credentials: request.credentials, sha256: Sha256 });
  const [hostname, port] = request.host.split(':');
  const signed = await signer.sign(
    {
      method: 'POST',
      protocol: 'https:',
      hostname: hostname as string,
      ...(port ? { port: Number(port) } : {}),
      path: '/',
      query: {},
      headers: { ...request.headers, host: request.host },
      body: request.body,
    },
    { signingDate: at },
  );
  return signed.headers;
}

const CREDENTIALS = { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' };

describe('signPost', () => {
  const at = new Date('2026-12-06T06:40:12.345Z');
  const post = {
    host: 'dynamodb.eu-west-1.amazonaws.com',
    service: 'dynamodb',
    region: 'eu-west-1',
    headers: { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': 'DynamoDB_20120810.PutItem' },
    body: JSON.stringify({ TableName: 'contacts-reports', Item: { pk: { S: 'event#fac_a#1' }, note: { S: 'ünïcode  spaces' } } }),
    credentials: CREDENTIALS,
    at,
  };

  test('signs a DynamoDB call exactly as the SDK signer does', async () => {
    const ours = signPost(post);
    const theirs = await smithySigned(post, at);
    expect(ours.authorization).toBe(theirs.authorization);
    expect(ours['x-amz-date']).toBe(theirs['x-amz-date']);
  });

  test('signs the session token of temporary credentials (a Lambda role) as the SDK signer does', async () => {
    const withToken = { ...post, credentials: { ...CREDENTIALS, sessionToken: 'IQoJb3JpZ2luX2VjEJr//////////token' } };
    const ours = signPost(withToken);
    const theirs = await smithySigned(withToken, at);
    expect(ours['x-amz-security-token']).toBe(withToken.credentials.sessionToken);
    expect(ours.authorization).toBe(theirs.authorization);
  });

  test('signs a local endpoint with its port as the SDK signer does', async () => {
    const local = { ...post, host: '127.0.0.1:8000', region: 'us-east-1' };
    expect(signPost(local).authorization).toBe((await smithySigned(local, at)).authorization);
  });

  test('a signature changes with the body, the day and the secret, and a kept signing key never serves another secret', async () => {
    const base = signPost(post).authorization;
    expect(signPost({ ...post, body: `${post.body} ` }).authorization).not.toBe(base);
    const nextDay = { ...post, at: new Date('2026-12-07T00:00:01Z') };
    expect(signPost(nextDay).authorization).toBe((await smithySigned(nextDay, nextDay.at)).authorization);
    const otherSecret = { ...post, credentials: { ...CREDENTIALS, secretAccessKey: 'another' } };
    expect(signPost(otherSecret).authorization).toBe((await smithySigned(otherSecret, at)).authorization);
  });

  test('amzDate writes the time as SigV4 wants it', () => {
    expect(amzDate(at)).toBe('20261206T064012Z');
  });
});
