import { createHash, createHmac } from 'node:crypto';

/**
 * AWS Signature Version 4 for one JSON POST to an AWS service's root path
 * (DynamoDB's protocol): the headers the request is sent with, the
 * `authorization` among them. What @smithy/signature-v4 computes for the
 * same request, byte for byte (test/lambda/infrastructure/aws-sdk/sigv4.test.ts
 * holds the two equal), with the day's signing key kept between calls: the
 * lean DynamoDB client signs every call of the hot path with it
 * (docs/performance.md#cpu-per-event).
 */

export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

export interface SignedPost {
  /** `host[:port]` as sent. */
  host: string;
  service: string;
  region: string;
  /** Headers besides host, date and token, lowercase names (content-type, x-amz-target): all of them signed. */
  headers: Record<string, string>;
  body: string;
  credentials: AwsCredentials;
  /** The signing time (now unless given). */
  at?: Date;
}

const sha256Hex = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');
const hmac = (key: Buffer | string, text: string): Buffer => createHmac('sha256', key).update(text, 'utf8').digest();

/** Signing keys by secret, day, region and service: one HMAC chain a day instead of one a call. */
const signingKeys = new Map<string, Buffer>();
const MAX_KEYS = 16;

function signingKey(secret: string, day: string, region: string, service: string): Buffer {
  const id = `${day}\n${region}\n${service}\n${secret}`;
  let key = signingKeys.get(id);
  if (!key) {
    key = hmac(hmac(hmac(hmac(`AWS4${secret}`, day), region), service), 'aws4_request');
    if (signingKeys.size >= MAX_KEYS) signingKeys.clear();
    signingKeys.set(id, key);
  }
  return key;
}

/** `20261206T064000Z`: the ISO time without separators or milliseconds. */
export const amzDate = (at: Date): string => at.toISOString().replace(/[-:]|\.\d{3}/g, '');

/** The headers to send: the request's own, `host`, the payload's hash, `x-amz-date`, the session token when there is one, and `authorization`. */
export function signPost(request: SignedPost): Record<string, string> {
  const date = amzDate(request.at ?? new Date());
  const day = date.slice(0, 8);
  const { accessKeyId, secretAccessKey, sessionToken } = request.credentials;
  const payloadHash = sha256Hex(request.body);
  // The payload's hash as a header too, as the SDK's signer sends it by default (applyChecksum).
  const headers: Record<string, string> = { ...request.headers, host: request.host, 'x-amz-content-sha256': payloadHash, 'x-amz-date': date };
  if (sessionToken) headers['x-amz-security-token'] = sessionToken;
  const names = Object.keys(headers).sort();
  const signedHeaders = names.join(';');
  const canonical = `POST\n/\n\n${names.map((name) => `${name}:${(headers[name] as string).trim().replace(/\s+/g, ' ')}\n`).join('')}\n${signedHeaders}\n${payloadHash}`;
  const scope = `${day}/${request.region}/${request.service}/aws4_request`;
  const toSign = `AWS4-HMAC-SHA256\n${date}\n${scope}\n${sha256Hex(canonical)}`;
  const signature = createHmac('sha256', signingKey(secretAccessKey, day, request.region, request.service))
    .update(toSign, 'utf8')
    .digest('hex');
  headers.authorization = `AWS4-HMAC-SHA256 Credential=${accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
