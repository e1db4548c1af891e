import { clip } from '../../kernel/clip';
import { apiError } from './responses';
import type { ApiEvent, RouteHandler } from './types';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS' | 'HEAD';

/** A compiled route: its checks, body and operation already composed into one handler. */
export interface Route<Slot extends object = object> {
  method: Method;
  /** Path pattern, parameters in braces: `/api/v1/contacts/{id}`. */
  path: string;
  handler: RouteHandler<Slot>;
}

/** The matching of @middy/http-router, which this replaces: `{name}` is one segment (captured by name), a trailing slash is optional. */
export function routePattern(path: string): RegExp {
  const body = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{([^/{}]+)\}/g, (_match, name: string) => `(?<${name.replace(/\\/g, '')}>[^/]+)`);
  return new RegExp(`^${body}/?$`);
}

/**
 * Names the route a request went to, for logs and metrics: the method and
 * path template (`GET /api/v1/contacts/{id}`), `<template> (other method)` for
 * a known path under a method it does not serve, `unmatched` otherwise. Never
 * the raw path: it could hold an email or a key, and it is unbounded.
 */
export function routeLabeler(routes: Pick<Route, 'method' | 'path'>[]): (method: string, path: string) => string {
  const patterns = routes.map((route) => ({ route, regexp: routePattern(route.path) }));
  return (method, path) => {
    const onPath = patterns.filter(({ regexp }) => regexp.test(path));
    const exact = onPath.find(({ route }) => route.method === method);
    if (exact) return `${method} ${exact.route.path}`;
    const template = onPath[0]?.route.path;
    return template === undefined ? 'unmatched' : `${template} (other method)`;
  };
}

/**
 * Routes a request to the route of its method and path, paths without
 * parameters first, as @middy/http-router did (the parameters' values join
 * `event.pathParameters`); where no route matches, answers 405 with `Allow`
 * when the path exists under other methods (docs/contacts-api.md#not-in-this-api), 404 otherwise.
 */
export function createRouter<Slot extends object>(routes: Route<Slot>[], home: string): RouteHandler<Slot> {
  const patterns = routes.map((route) => ({ route, regexp: routePattern(route.path) }));
  const ordered = [...patterns.filter(({ route }) => !route.path.includes('{')), ...patterns.filter(({ route }) => route.path.includes('{'))];
  return async (event: ApiEvent, context) => {
    const { httpMethod: method, path } = event;
    if (!method || !path) throw new Error('Unknown http event format');
    for (const { route, regexp } of ordered) {
      if (route.method !== method) continue;
      const match = regexp.exec(path);
      if (!match) continue;
      if (match.groups) event.pathParameters = { ...match.groups, ...event.pathParameters };
      return route.handler(event, context);
    }
    const matching = patterns.filter(({ regexp }) => regexp.test(path));
    if (matching.length === 0) {
      throw apiError(404, `No such endpoint: ${method} ${clip(path, 300)}. ${home}`);
    }
    const allow = [...new Set(matching.map(({ route }) => route.method))].sort().join(', ');
    const template = matching[0]?.route.path ?? path;
    throw apiError(405, `Method ${method} is not allowed on ${template}; allowed: ${allow}.`, { Allow: allow });
  };
}
