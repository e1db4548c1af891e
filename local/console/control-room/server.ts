import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { ControlClient, ControlReply } from '../control/client';
import { typedReply } from '../control/typed-reply';
import { loadAssets } from './assets';
import type { OperationName } from '../../../lambda/control/answers';
import type { OperationRequest, Route, RouteContext } from './context';
import { html, path } from './html';
import { CANARY_FACTORY_ID } from '../../../lambda/kernel/canary';
import { renderPage } from './layout';
import { redirect, sendJson, sendText } from './respond';
import { alertRoutes } from './routes/alerts';
import { apiRoutes } from './routes/api';
import { companyRoutes } from './routes/companies';
import { contactRoutes } from './routes/contacts';
import { enrichmentRoutes } from './routes/enrichment';
import { eraseRoutes } from './routes/erase';
import { exportRoutes } from './routes/export';
import { homeRoutes } from './routes/home';
import { keyRoutes } from './routes/keys';
import { reportRoutes } from './routes/reports';
import { fetchSiteProblem, SECURITY_HEADERS, type Session } from './security';

const ROUTES: Route[] = [
  ...homeRoutes,
  ...contactRoutes,
  ...eraseRoutes,
  ...companyRoutes,
  ...enrichmentRoutes,
  ...exportRoutes,
  ...keyRoutes,
  ...reportRoutes,
  ...alertRoutes,
  ...apiRoutes,
];

/**
 * Which factories exist, as far as the control room can tell: a factory
 * exists once a key was issued for it (nothing is stored for a factory
 * without one), and the canary factory, which has data but never a key.
 * Known ones are remembered for this run; an
 * unknown one is asked again each time, as its first key may come.
 */
function knownFactories() {
  const known = new Set<string>([CANARY_FACTORY_ID]);
  return {
    /** True or false; undefined when the keys cannot be listed (the page then answers as it would). */
    async known(context: RouteContext, factoryId: string): Promise<boolean | undefined> {
      if (known.has(factoryId)) return true;
      const reply = await context.ask({ operation: 'keys.list', factoryId });
      if (!reply.ok) return undefined;
      if (reply.body.keys.length === 0) return false;
      known.add(factoryId);
      return true;
    },
  };
}

export interface ControlRoomOptions {
  client: ControlClient;
  session: Session;
}

function matchRoute(method: string, pathname: string): { route: Route; parameters: Record<string, string> } | undefined {
  for (const route of ROUTES) {
    if (route.method !== method) continue;
    const parameters = route.match(pathname);
    if (parameters) return { route, parameters };
  }
  return undefined;
}

/** Why a state-changing request is refused, or undefined when it may go on. */
function stateChangeProblem(req: IncomingMessage, session: Session): string | undefined {
  if (!session.originAllowed(req.headers.origin, req.headers.host)) return "the Origin of this request is not the control room's own";
  const token = req.headers['x-csrf-token'];
  if (!session.csrfMatches(typeof token === 'string' ? token : undefined)) return 'the CSRF token is missing or wrong: reload the page';
  if (!/^application\/json(;|$)/.test(req.headers['content-type'] ?? '')) return 'send the operation as application/json';
  return undefined;
}

/**
 * The control room's HTTP server, in the order each request is checked:
 * Host (exact allow-list, before any routing: DNS rebinding), method, who
 * started it (Sec-Fetch-Site: another site or another port's page is refused), static assets (no secrets in them), the login link, the session cookie,
 * and for POST the Origin, CSRF token and content type. Then the route.
 */
export function createControlRoomServer(options: ControlRoomOptions): Server {
  const { client, session } = options;
  const assets = loadAssets();

  const run = async (request: unknown): Promise<ControlReply> => {
    try {
      return await client.send(request);
    } catch (error) {
      // The function URL could not be reached at all: said in the page like an operation's error.
      return { status: 502, body: { error: error instanceof Error ? error.message : String(error) } };
    }
  };

  const ask = <N extends OperationName>(request: OperationRequest<N>) => run(request).then((reply) => typedReply<N>(reply));
  const factories = knownFactories();

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!session.hostAllowed(req.headers.host)) {
      sendText(res, 421, 'Misdirected request: this control room answers only to its own host names (127.0.0.1 and localhost with its port)');
      return;
    }
    const method = req.method === 'HEAD' ? 'GET' : (req.method ?? 'GET');
    if (method !== 'GET' && method !== 'POST') {
      sendText(res, 405, 'use GET or POST', { allow: 'GET, HEAD, POST' });
      return;
    }
    const startedElsewhere = fetchSiteProblem(req.headers['sec-fetch-site']);
    if (startedElsewhere) {
      sendText(res, 403, startedElsewhere);
      return;
    }
    const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
    const asset = url.pathname.startsWith('/assets/') ? assets.get(url.pathname.slice('/assets/'.length)) : undefined;
    if (asset && method === 'GET') {
      res.writeHead(200, { ...SECURITY_HEADERS, 'content-type': asset.type, 'content-length': asset.body.length });
      res.end(asset.body);
      return;
    }
    if (url.pathname === '/login' && method === 'GET') {
      if (!session.secretMatches(url.searchParams.get('token') ?? undefined)) {
        sendText(res, 401, 'This login link is not the one this control room printed: open the URL `npm run control-room` printed at start');
        return;
      }
      // The cookie takes the secret's place; the redirect drops it from the address bar and history.
      redirect(res, '/', { 'set-cookie': session.sessionCookie() });
      return;
    }
    if (!session.signedIn(req)) {
      sendText(res, 401, "Not signed in: open the URL `npm run control-room` printed at start (it holds this session's secret)");
      return;
    }
    if (method === 'POST') {
      const problem = stateChangeProblem(req, session);
      if (problem) {
        sendJson(res, 403, { error: problem });
        return;
      }
    }
    const context: RouteContext = { req, res, url, client, session, run, ask };
    const found = matchRoute(method, url.pathname);
    if (!found) {
      renderPage(context, 404, { title: 'Not found', body: html`<h1>Not found</h1><p>No page at this address. <a href="/">Choose a factory</a>.</p>` });
      return;
    }
    const { factoryId } = found.parameters;
    // A factory's pages, bar its keys page (where a new factory's first key is issued), are for a factory that exists.
    if (factoryId !== undefined && !/\/keys$/.test(found.route.path) && (await factories.known(context, factoryId)) === false) {
      renderPage(context, 404, {
        title: 'No such factory',
        body: html`<h1>No factory ${factoryId}</h1>
<p>No key was ever issued for ${factoryId}, so nothing is stored for it: check the id in the address (ids are exact, <code>fac_</code> then lowercase letters, digits, <code>_</code> or <code>-</code>).</p>
<p><a href="/">Choose a factory</a>, or, if ${factoryId} is a new factory, <a href="${path`/f/${factoryId}/keys`}">issue its first key</a>.</p>`,
      });
      return;
    }
    await found.route.handle(context, found.parameters);
  }

  return createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      sendText(res, 500, `the control room failed: ${error instanceof Error ? error.message : String(error)}`);
    });
  });
}

/** Listens on 127.0.0.1 only (never every interface); resolves with the port. */
export function listenLocal(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });
}
