/**
 * The empty service of the throughput comparison: the bare client's calls
 * (bare-client.ts) answered over HTTP by the same local adapter the service
 * runs behind, with nothing else. No Middy, no key parsing or hashing, no
 * validation, no logs or metrics: a POST makes the upsert's calls, a GET the
 * read's, and the answer is their result as JSON.
 *
 * Driven by the same autocannon as the service, it shows what HTTP alone
 * costs on this machine (the load generator in another process, the request
 * parsed and answered, the processes woken for it): empty / bare is about the
 * best any HTTP service making these calls could reach here, and service / empty
 * is what the service adds on top.
 */
import type { ProxyHandler } from '../../local/harness/http-adapter';
import { bareOperation, type BareDeps, type BareTarget } from './bare-client';

export function emptyServiceHandler(deps: BareDeps, target: BareTarget): ProxyHandler {
  const upsert = bareOperation('upsert', deps, target);
  const get = bareOperation('get', deps, target);
  return async (event) => {
    const body = JSON.stringify(await (event.httpMethod === 'POST' ? upsert() : get()));
    return { statusCode: 200, headers: { 'Content-Type': 'application/json' }, body };
  };
}
