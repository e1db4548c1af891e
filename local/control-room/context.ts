import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ControlClient, ControlReply } from '../control/client';
import type { Session } from './security';

/** What a route gets: the request, where to answer, the operations, the session. */
export interface RouteContext {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  client: ControlClient;
  session: Session;
  /** Calls one control-room operation (the same ones `control` runs): its status and JSON object. */
  run(request: Record<string, unknown>): Promise<ControlReply>;
}

/** A route: a method, a path pattern (its groups are the path's parameters, URL-decoded), and what it does. */
export interface Route {
  method: 'GET' | 'POST';
  pattern: RegExp;
  handle(context: RouteContext, params: string[]): Promise<void>;
}

/** A factory id in a path, as the operations check it. */
export const FACTORY = '(fac_[A-Za-z0-9_-]{1,64})';
