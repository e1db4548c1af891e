import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
import type { ApiHandler } from '../../lambda/infrastructure/http/pipeline';
import { incomingMessageOf, lambdaContext, toProxyEvent } from '../../local/harness/http-adapter';
import type { FuzzRequest } from './request';

/** An answer, from the handler itself or from the HTTP layer in front of it. */
export interface FuzzResponse {
  status: number;
  /** Lowercased names; repeated fields joined with ", ". */
  headers: Record<string, string>;
  body: string;
}

/**
 * The proxy event the local adapter builds for this request: the project's
 * one model of what API Gateway sends, fed with strings no HTTP parser
 * would let through (any method, unicode in the target and headers).
 */
export function proxyEventOf(request: FuzzRequest, requestId: string) {
  return toProxyEvent(incomingMessageOf(request.method, request.target, request.headers.flat()), request.body, requestId);
}

/** Calls the handler in-process, as the Lambda runtime would. */
export async function invoke(handler: ApiHandler, request: FuzzRequest): Promise<FuzzResponse> {
  const requestId = randomUUID();
  const result = await handler(proxyEventOf(request, requestId), lambdaContext(requestId, 10_000));
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(result.headers ?? {})) headers[name.toLowerCase()] = String(value);
  for (const [name, values] of Object.entries(result.multiValueHeaders ?? {})) {
    headers[name.toLowerCase()] = values.map(String).join(', ');
  }
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64').toString('utf8') : result.body;
  return { status: result.statusCode, headers, body };
}

/** Header text as bytes: Latin-1 when every character fits a byte (so 0x80-0xFF go out raw, invalid UTF-8), else UTF-8. */
const octets = (text: string): Buffer => Buffer.from(text, /^[\u0000-\u00ff]*$/.test(text) ? 'latin1' : 'utf8');

/** The request as bytes on the wire: HTTP/1.1, one request per connection. */
export function rawBytes(request: FuzzRequest, host: string): Buffer {
  const head = [octets(`${request.method} ${request.target} HTTP/1.1\r\nHost: ${host}\r\n`)];
  for (const [name, value] of request.headers) head.push(octets(`${name}: ${value}\r\n`));
  head.push(Buffer.from(`Content-Length: ${request.body.length}\r\nConnection: close\r\n\r\n`, 'latin1'));
  return Buffer.concat([...head, request.body]);
}

/** Parses one HTTP/1.1 answer read up to the connection's close. */
export function parseRawResponse(raw: Buffer): FuzzResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end === -1) throw new Error(`no complete HTTP answer (${raw.length} bytes: ${JSON.stringify(raw.toString('latin1').slice(0, 200))})`);
  const [statusLine = '', ...fields] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  if (!status) throw new Error(`not an HTTP status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const field of fields) {
    const colon = field.indexOf(':');
    const name = field.slice(0, colon).trim().toLowerCase();
    const value = field.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { status: Number(status[1]), headers, body: raw.subarray(end + 4).toString('utf8') };
}

/** Sends the request's bytes to the local HTTP adapter and reads the answer. */
export function sendRaw(port: number, request: FuzzRequest, timeoutMs = 15_000): Promise<FuzzResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: the adapter closes the connection after its answer (Connection: close).
    const socket = connect(port, '127.0.0.1', () => socket.write(rawBytes(request, `127.0.0.1:${port}`)));
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    // The server may answer and close before reading everything we sent (a refused request): that is an answer too.
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code === 'ECONNRESET' || error.code === 'EPIPE') return;
      reject(error);
    });
    socket.on('close', () => {
      try {
        resolve(parseRawResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
}
