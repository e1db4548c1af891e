import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearer, endpoint, issueKey, newFactoryId, realDependencies, startLocalApi, tables, type LocalApi } from '../support/local-api';

/**
 * A warm read of the contacts API is one round (docs/architecture.md#choices-worth-knowing): with a key this
 * container has seen allowed, the read starts beside the key check, not after it. Held without a clock: a proxy in
 * front of DynamoDB Local holds the key check's UpdateItem until the read's GetItem arrives, so a read that waited
 * for the check never arrives while it is held (the proxy lets the check go after 20 s, and the test fails then).
 */

type Release = 'by the read' | 'after the wait';

/** The proxy: `gate` on, it holds each key-table UpdateItem until a GetItem comes in, and records what released it. */
async function gateProxy(): Promise<{ url: string; gate: boolean; releases: Release[]; close: () => Promise<void> }> {
  const target = new URL(endpoint());
  let waiting: (() => void)[] = [];
  const state = { url: '', gate: false, releases: [] as Release[], close: async () => {} };
  const forward = (req: IncomingMessage, body: Buffer, res: ServerResponse) => {
    const out = request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 500, answer.headers);
      answer.pipe(res);
    });
    out.end(body);
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = String(req.headers['x-amz-target'] ?? '');
      if (state.gate && operation.endsWith('.GetItem')) {
        for (const release of waiting) release();
        waiting = [];
      }
      const keyCheck = operation.endsWith('.UpdateItem') && (JSON.parse(body.toString('utf8')) as { TableName?: string }).TableName === tables.keys;
      if (!state.gate || !keyCheck) return forward(req, body, res);
      const timer = setTimeout(() => {
        state.releases.push('after the wait');
        forward(req, body, res);
      }, 20_000);
      waiting.push(() => {
        clearTimeout(timer);
        state.releases.push('by the read');
        forward(req, body, res);
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

let proxy: Awaited<ReturnType<typeof gateProxy>>;
let api: LocalApi;
let auth: Record<string, string>;
beforeAll(async () => {
  proxy = await gateProxy();
  // Patient attempts: the held check must not time out on the client's side.
  api = await startLocalApi(realDependencies({ endpoint: proxy.url, requestTimeoutMs: 60_000 }));
  auth = bearer((await issueKey(newFactoryId('warm'))).key);
});
afterAll(async () => {
  await api.close();
  await proxy.close();
});

test.each([
  ['by id', (id: string) => `/api/v1/contacts/${id}`],
  ['by email', () => '/api/v1/contacts?email=warm.reader%40example.com'],
])(
  'a warm GET %s sends its read while the key check is still out: one round',
  async (_name, path) => {
    const created = await api.request('POST', '/api/v1/contacts', { headers: auth, body: { email: 'warm.reader@example.com' } });
    expect(created.status).toBeLessThan(300);
    proxy.releases = [];
    proxy.gate = true;
    try {
      const read = await api.request('GET', path(created.json.contact.id), { headers: auth });
      expect(read.status).toBe(200);
      expect(read.json.contact.id).toBe(created.json.contact.id);
    } finally {
      proxy.gate = false;
    }
    expect(proxy.releases).toEqual(['by the read']);
  },
  60_000,
);
