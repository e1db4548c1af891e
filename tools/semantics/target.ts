/**
 * The DynamoDB behind the proxy (a DynamoDB Local): requests forwarded as they
 * came, and the proxy's own calls (DescribeTable, the reads before and after a
 * write), over keep-alive connections. The proxy's own calls carry the
 * caller's Authorization and date headers: DynamoDB Local does not check
 * signatures but derives its namespace from the credentials, so they read
 * what the caller's request will write.
 */
import { Agent, request, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import type { Json } from './wire';

export interface TargetAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** Headers that belong to one connection, not to the request or answer. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'host', 'te', 'trailer']);

export function endToEnd(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name.toLowerCase())) kept[name] = value;
  }
  return kept;
}

/** The headers the proxy's own calls copy from the caller's request. */
const IDENTITY = ['authorization', 'x-amz-date', 'x-amz-security-token'];

export class Target {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 256 });
  private readonly url: URL;

  constructor(url: string) {
    this.url = new URL(url);
  }

  /** Sends a request and hands back the answer as a stream (the caller reads or pipes it). */
  stream(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      const outgoing = request(
        {
          protocol: this.url.protocol,
          hostname: this.url.hostname,
          port: this.url.port,
          method,
          path,
          agent: this.agent,
          headers: { ...endToEnd(headers), host: this.url.host, 'content-length': String(body.length) },
        },
        resolve,
      );
      outgoing.on('error', reject);
      outgoing.end(body);
    });
  }

  async send(method: string, path: string, headers: IncomingHttpHeaders, body: Buffer): Promise<TargetAnswer> {
    const answer = await this.stream(method, path, headers, body);
    const chunks: Buffer[] = [];
    for await (const chunk of answer) chunks.push(chunk as Buffer);
    return { status: answer.statusCode ?? 502, headers: answer.headers, body: Buffer.concat(chunks) };
  }

  /** One DynamoDB API call of the proxy's own, as the caller of `identity`; the parsed answer. */
  async call(operation: string, payload: Json, identity: IncomingHttpHeaders): Promise<{ status: number; body: Json }> {
    const headers: IncomingHttpHeaders = { 'content-type': 'application/x-amz-json-1.0', 'x-amz-target': `DynamoDB_20120810.${operation}` };
    for (const name of IDENTITY) if (identity[name] !== undefined) headers[name] = identity[name];
    // A caller that sent no credentials still gets an answer from DynamoDB Local under a fixed local identity.
    headers.authorization ??= 'AWS4-HMAC-SHA256 Credential=local/20000101/us-east-1/dynamodb/aws4_request, SignedHeaders=host, Signature=0';
    const answer = await this.send('POST', '/', headers, Buffer.from(JSON.stringify(payload), 'utf8'));
    const text = answer.body.toString('utf8');
    return { status: answer.status, body: text ? (JSON.parse(text) as Json) : {} };
  }

  close(): void {
    this.agent.destroy();
  }
}
