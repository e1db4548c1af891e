import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ControlReply } from '../../local/console/control/client';
import { streamExport } from '../../local/console/control-room/export-stream';

/**
 * The export's stream when the browser goes away between two pages: it
 * stops, asks for no page after the one in flight, and does not wait for a
 * `drain` that cannot come. A real HTTP server and client; the operations
 * are a stand-in that answers the pages when the test says so.
 */

/** A promise and the function that settles it. */
function signal<T = void>() {
  let settle!: (value: T) => void;
  const promise = new Promise<T>((resolve) => {
    settle = resolve;
  });
  return { promise, settle };
}

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
});

test('a browser gone between pages ends the export: the page in flight is dropped, none after it is asked for, and the stream returns', async () => {
  const asked: unknown[] = [];
  const secondPage = signal<ControlReply>();
  const run = (request: unknown): Promise<ControlReply> => {
    asked.push(request);
    if (asked.length === 1) return Promise.resolve({ status: 200, body: { data: 'first page\n', cursor: 'c2' } });
    if (asked.length === 2) return secondPage.promise;
    return Promise.resolve({ status: 200, body: { data: 'a page nobody asked for\n' } });
  };
  const closed = signal();
  const finished = signal<'returned'>();
  server = createServer((_req, res) => {
    res.on('close', () => closed.settle());
    void streamExport(res, run, 'fac_gone', 'jsonl', () => undefined).then(() => finished.settle('returned'));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as AddressInfo;

  // The browser reads the first page, then goes away while the second is being read.
  const client = request({ host: '127.0.0.1', port, path: '/', agent: false });
  client.on('error', () => undefined);
  client.on('response', (res) => res.once('data', () => client.destroy()));
  client.end();
  await closed.promise;
  secondPage.settle({ status: 200, body: { data: 'second page\n', cursor: 'c3' } });

  expect(await finished.promise).toBe('returned');
  expect(asked).toHaveLength(2);
});
