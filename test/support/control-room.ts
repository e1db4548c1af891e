import { request, type IncomingHttpHeaders } from 'node:http';
import { connectControl, type ControlClient, type ControlReply } from '../../local/console/control/client';
import { createSession, type Session } from '../../local/console/control-room/security';
import { createControlRoomServer, listenLocal } from '../../local/console/control-room/server';
import { freePort } from '../../local/harness/ports';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
}

/** A raw HTTP request to 127.0.0.1:<port>, every header as given (Host, Origin, Cookie included). */
export function rawCall(port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: { ...headers, ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }) },
        agent: false,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

export interface ControlRoom {
  port: number;
  origin: string;
  session: Session;
  /** The Cookie header of a signed-in browser. */
  cookie: string;
  /** A GET as the app's own browser sends it (own Host, session cookie). */
  get(path: string, headers?: Record<string, string>): Promise<Answer>;
  /** An operation as the app's own pages post it (own Host and Origin, cookie, CSRF token, JSON). */
  operation(body: unknown, headers?: Record<string, string>): Promise<Answer>;
  close(): Promise<void>;
}

/** The control room served in this process on the run's DynamoDB Local (DYNAMODB_ENDPOINT), as `npm run control-room` serves it. */
export async function startControlRoom(client?: ControlClient): Promise<ControlRoom> {
  const operations = client ?? (await connectControl({}));
  const port = await freePort();
  const session = createSession(port);
  const server = createControlRoomServer({ client: operations, session });
  await listenLocal(server, port);
  const host = `127.0.0.1:${port}`;
  const cookie = `${session.cookieName}=${session.secret}`;
  return {
    port,
    origin: `http://${host}`,
    session,
    cookie,
    get: (path, headers = {}) => rawCall(port, 'GET', path, { host, cookie, ...headers }),
    operation: (body, headers = {}) =>
      rawCall(
        port,
        'POST',
        '/api/operation',
        { host, cookie, origin: `http://${host}`, 'x-csrf-token': session.csrfToken, 'content-type': 'application/json', ...headers },
        JSON.stringify(body),
      ),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!client) await operations.close();
    },
  };
}

/**
 * The control room over HTTP with its operations replaced by fixed answers,
 * for a test file: `answers` by operation name (unset: a 500 saying so),
 * `asked` every request the pages sent, `room` the web app once started.
 */
export function controlRoomWithFixedAnswers(): { answers: Map<string, ControlReply>; asked: Record<string, unknown>[]; room: () => ControlRoom } {
  const answers = new Map<string, ControlReply>();
  const asked: Record<string, unknown>[] = [];
  const client: ControlClient = {
    where: 'fixed answers',
    send: async (request) => {
      asked.push(request as Record<string, unknown>);
      return answers.get(String((request as { operation?: unknown }).operation)) ?? { status: 500, body: { error: 'no answer set' } };
    },
    call: async () => ({}),
    close: async () => undefined,
  };
  let room: ControlRoom | undefined;
  beforeAll(async () => {
    room = await startControlRoom(client);
  });
  afterAll(() => room?.close());
  return {
    answers,
    asked,
    room: () => {
      if (!room) throw new Error('the control room did not start');
      return room;
    },
  };
}
