import type { ProxyHandler } from './http-adapter';

/** One API of the host: the paths it owns and the handler that serves them. */
export interface MountedApi {
  prefix: string;
  handler: ProxyHandler;
}

/**
 * One port for every API, as one API Gateway stage on AWS: a request goes to
 * the first API whose prefix its path starts with, anything else to
 * `fallback` (the contacts API, which answers every other path on AWS too).
 */
export function dispatchByPrefix(mounted: readonly MountedApi[], fallback: ProxyHandler): ProxyHandler {
  return (event, context) => {
    const api = mounted.find(({ prefix }) => event.path.startsWith(prefix));
    return (api?.handler ?? fallback)(event, context);
  };
}
