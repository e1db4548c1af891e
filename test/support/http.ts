import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { connect } from 'node:net';
import { assertDocumented } from '../../openapi/response-check';

export interface HttpResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON (undefined when it is not JSON). */
  json: any;
}

export interface RequestOptions {
  headers?: Record<string, string>;
  /** Headers as name, value, name, value…: to send one header several times. */
  rawHeaders?: string[];
  /** A string or Buffer is sent as is; anything else as JSON. */
  body?: unknown;
  /** The client's address, any of 127.0.0.0/8: the server sees the request come from it. */
  localAddress?: string;
}

/**
 * A raw HTTP request (node:http, so no header is added behind our back: no
 * Origin, no defaults). Every answer is held to the OpenAPI document
 * (openapi/response-check.ts): one the document does not describe rejects.
 */
export function send(baseUrl: string, method: string, path: string, options: RequestOptions = {}): Promise<HttpResponse> {
  const url = new URL(path, baseUrl);
  const payload =
    options.body === undefined ? undefined : typeof options.body === 'string' || Buffer.isBuffer(options.body) ? options.body : JSON.stringify(options.body);
  // Raw headers go out as given: Host included (node adds it only to object headers).
  const headers: Record<string, string | number> | string[] = options.rawHeaders ? ['Host', url.host, ...options.rawHeaders] : { ...options.headers };
  if (payload !== undefined) {
    if (Array.isArray(headers)) headers.push('Content-Length', String(Buffer.byteLength(payload)));
    else headers['Content-Length'] = Buffer.byteLength(payload);
  }
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false, localAddress: options.localAddress }, (res) =>
      readResponse(res)
        .then((response) => {
          assertDocumented({ method, path: `${url.pathname}${url.search}` }, response);
          return response;
        })
        .then(resolve, reject),
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** Writes bytes straight to the socket (for requests no HTTP client would send); resolves with the raw answer. */
export function rawRequest(baseUrl: string, request: string | Buffer): Promise<string> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    // Write without ending: the server closes after its answer (send "Connection: close").
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString('utf8')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** Reads a whole response: its status, headers, text, and the text parsed as JSON when it is JSON. */
export function readResponse(res: IncomingMessage): Promise<HttpResponse> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    res.on('data', (chunk: Buffer) => chunks.push(chunk));
    res.on('error', reject);
    res.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
    });
  });
}
