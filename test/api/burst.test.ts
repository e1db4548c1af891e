import { request as httpRequest, type Server } from 'node:http';
import type { APIGatewayProxyResult } from 'aws-lambda';
import { createHttpAdapter, listen } from '../../local/harness/http-adapter';
import { burstPassed, burstReport, concurrently, pipelined, runBurst } from '../../tools/load/burst';
import { issueKey, newFactoryId, startLocalApi, tables, testDoc } from '../support/local-api';
import { until } from '../support/until';

/** The connections a server holds open now. */
const connections = (server: Server): Promise<number> =>
  new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));

/**
 * A burst against the local server must not turn into 5xx: the adapter runs
 * a bounded number of handler calls at once, as Lambda's concurrency does,
 * and the others wait their turn (`npm run load -- --burst 400` at full size).
 */

/** An adapter around a handler that answers only when the test lets it, recording how many calls run at once. */
async function gatedServer(limits: { concurrency: number; maxWaiting: number }) {
  let running = 0;
  let most = 0;
  const started: string[] = [];
  const gates: (() => void)[] = [];
  const server: Server = createHttpAdapter(
    async (event) => {
      running += 1;
      most = Math.max(most, running);
      started.push(event.path);
      await new Promise<void>((resolve) => gates.push(resolve));
      running -= 1;
      return { statusCode: 200, body: JSON.stringify({ path: event.path }) } satisfies APIGatewayProxyResult;
    },
    { invocations: limits },
  );
  let arrived = 0;
  server.on('request', () => {
    arrived += 1;
  });
  const port = await listen(server, 0, '127.0.0.1');
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    started,
    most: () => most,
    arrived: () => arrived,
    /** Lets every call waiting at its gate answer. */
    openAll: () => gates.splice(0).forEach((open) => open()),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('the local adapter under a burst', () => {
  test('runs at most `concurrency` handler calls at once; the others wait and are answered, in the order they came', async () => {
    const server = await gatedServer({ concurrency: 3, maxWaiting: 100 });
    try {
      const requests = Array.from({ length: 12 }, (_, i) => ({ method: 'GET' as const, path: `/r${i}` }));
      const answers = pipelined(server.baseUrl, {}, requests);
      // Nothing frees a slot until the test opens the gates: once all twelve are in, only three have started.
      while (server.arrived() < 12) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      expect(server.started).toHaveLength(3);
      while (server.started.length < 12) {
        server.openAll();
        await new Promise((resolve) => setImmediate(resolve));
      }
      server.openAll();
      const statuses = (await answers).map((answer) => (answer instanceof Error ? answer.message : answer.status));
      expect(statuses).toEqual(Array(12).fill(200));
      expect(server.most()).toBe(3);
      expect(server.started).toEqual(requests.map((r) => r.path));
    } finally {
      await server.close();
    }
  });

  test("a request that waited for a handler call keeps its client's address, even once the client has gone", async () => {
    const seen: string[] = [];
    const gates: (() => void)[] = [];
    const server: Server = createHttpAdapter(
      async (event) => {
        seen.push(event.requestContext.identity.sourceIp);
        await new Promise<void>((resolve) => gates.push(resolve));
        return { statusCode: 200, body: '{}' } satisfies APIGatewayProxyResult;
      },
      { invocations: { concurrency: 1, maxWaiting: 10 } },
    );
    const port = await listen(server, 0, '127.0.0.1');
    const call = (localAddress: string) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/', method: 'POST', localAddress, agent: false });
      req.on('error', () => {});
      req.end('{}');
      return req;
    };
    try {
      call('127.0.0.2');
      await until('the first call to run', () => seen.length === 1);
      // The second waits behind it; its client gives up before its turn comes.
      let arrived = false;
      server.once('request', () => {
        arrived = true;
      });
      const second = call('127.0.0.3');
      await until('the second request to arrive', () => arrived);
      second.destroy();
      await until('the second socket to close on the server', async () => (await connections(server)) === 1);
      gates.splice(0).forEach((open) => open());
      await until('the second call to run', () => seen.length === 2);
      expect(seen).toEqual(['127.0.0.2', '127.0.0.3']);
    } finally {
      gates.splice(0).forEach((open) => open());
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  test('past the waiting room it answers 503 at once, with Retry-After and an {"error"} body', async () => {
    const server = await gatedServer({ concurrency: 1, maxWaiting: 2 });
    try {
      let settled = false;
      const answers = concurrently(
        server.baseUrl,
        {},
        Array.from({ length: 6 }, (_, i) => ({ method: 'GET' as const, path: `/r${i}` })),
      ).finally(() => {
        settled = true;
      });
      // All six in before any slot frees: one runs, two wait, three are turned away.
      while (server.arrived() < 6) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => setTimeout(resolve, 20));
      while (!settled) {
        server.openAll();
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      const all = (await answers).map((answer) => (answer instanceof Error ? { status: 0, retryAfter: undefined } : answer));
      expect(all.filter((a) => a.status === 200)).toHaveLength(3);
      expect(all.filter((a) => a.status === 503).map((a) => a.retryAfter)).toEqual(['1', '1', '1']);
    } finally {
      server.openAll();
      await server.close();
    }
  });

  test('a burst of 100 reads and 100 upserts, at once and pipelined, against the real handler: no 5xx, every write applied', async () => {
    const api = await startLocalApi();
    try {
      const factoryId = newFactoryId('burst');
      const { key } = await issueKey(factoryId, { rateLimit: 1_000_000 });
      const result = await runBurst({ baseUrl: api.baseUrl, key, factoryId, doc: testDoc(), contactsTable: tables.contacts }, 100);
      if (!burstPassed(result)) throw new Error(burstReport(result));
      expect(result.writes).toBe(200);
    } finally {
      await api.close();
    }
  }, 120_000);
});
