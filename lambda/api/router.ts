import httpRouterHandler, { type Method as RouterMethod } from '@middy/http-router';
import { clip } from '../domain/clip';
import { apiError } from './responses';
import type { ApiEvent, ApiResult, RouteHandler } from './types';

export type Method = Exclude<RouterMethod, 'ANY'>;

/** A compiled route: its steps and operation already composed into one handler. */
export interface Route {
  method: Method;
  /** Path pattern, parameters in braces: `/api/v1/contacts/{id}`. */
  path: string;
  handler: RouteHandler;
}

/** Same matching as @middy/http-router: `{name}` is one segment, a trailing slash is optional. */
function pattern(path: string): RegExp {
  const body = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^/}]+\\?\}/g, '[^/]+');
  return new RegExp(`^${body}/?$`);
}

/**
 * Names the route a request went to, for logs and metrics: the method and
 * path template (`GET /api/v1/contacts/{id}`), `<template> (other method)` for
 * a known path under a method it does not serve, `unmatched` otherwise. Never
 * the raw path: it could hold an email or a key, and it is unbounded.
 */
export function routeLabeler(routes: Pick<Route, 'method' | 'path'>[]): (method: string, path: string) => string {
  const patterns = routes.map((route) => ({ route, regexp: pattern(route.path) }));
  return (method, path) => {
    const onPath = patterns.filter(({ regexp }) => regexp.test(path));
    const exact = onPath.find(({ route }) => route.method === method);
    if (exact) return `${method} ${exact.route.path}`;
    const template = onPath[0]?.route.path;
    return template === undefined ? 'unmatched' : `${template} (other method)`;
  };
}

/**
 * Routes with @middy/http-router; where the router finds no route, answers
 * 405 with `Allow` when the path exists under other methods (docs/contacts-api.md#not-in-this-api), 404
 * otherwise.
 */
export function createRouter(routes: Route[], home: string): RouteHandler {
  const patterns = routes.map((route) => ({ route, regexp: pattern(route.path) }));
  return httpRouterHandler<ApiEvent, ApiResult>({
    routes,
    notFoundResponse: ({ method, path }) => {
      const matching = patterns.filter(({ regexp }) => regexp.test(path));
      if (matching.length === 0) {
        throw apiError(404, `No such endpoint: ${method} ${clip(path, 300)}. ${home}`);
      }
      const allow = [...new Set(matching.map(({ route }) => route.method))].sort().join(', ');
      const template = matching[0]?.route.path ?? path;
      throw apiError(405, `Method ${method} is not allowed on ${template}; allowed: ${allow}.`, { Allow: allow });
    },
  }) as unknown as RouteHandler;
}
