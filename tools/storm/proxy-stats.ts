import { request as httpRequest } from 'node:http';

/** GET or POST on the semantics proxy's stats endpoint (its body as text): the storms read and reset its counts through it. */
export function proxyCall(endpoint: string, method: 'GET' | 'POST', path: string): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const req = httpRequest(`${endpoint}${path}`, { method }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => (body += chunk.toString()));
      res.on('end', () => resolvePromise(body));
    });
    req.on('error', reject);
    req.end();
  });
}
