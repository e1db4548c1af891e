/** Load for concurrency tests: many requests over a fixed number of keep-alive connections, as a busy client sends them. */
import { Agent, request as httpRequest } from 'node:http';
import type { Socket } from 'node:net';
import { readResponse, type HttpResponse } from './http';

export interface PooledRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON. */
  body?: unknown;
}

export class ConnectionPool {
  private readonly agent: Agent;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly baseUrl: string,
    readonly connections: number,
  ) {
    // Requests beyond `connections` wait for a free connection, as in any HTTP client pool.
    this.agent = new Agent({ keepAlive: true, maxSockets: connections });
  }

  /** How many connections the requests so far were spread over. */
  get connectionsUsed(): number {
    return this.sockets.size;
  }

  send({ method, path, headers = {}, body }: PooledRequest): Promise<HttpResponse> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const allHeaders: Record<string, string | number> = { ...headers };
    if (payload !== undefined) {
      allHeaders['Content-Type'] = 'application/json';
      allHeaders['Content-Length'] = Buffer.byteLength(payload);
    }
    return new Promise((resolve, reject) => {
      const req = httpRequest(new URL(path, this.baseUrl), { method, headers: allHeaders, agent: this.agent }, (res) =>
        readResponse(res).then(resolve, reject),
      );
      req.on('socket', (socket) => this.sockets.add(socket));
      req.on('error', reject);
      if (payload !== undefined) req.write(payload);
      req.end();
    });
  }

  /** Sends all at once (the pool holds them to `connections` in flight) and answers in the same order. */
  sendAll(requests: PooledRequest[]): Promise<HttpResponse[]> {
    return Promise.all(requests.map((request) => this.send(request)));
  }

  close(): void {
    this.agent.destroy();
  }
}
