import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { AddressPolicy } from './address-policy';
import { checkDestinationUrl, literalAddress } from './destination-url';
import { allowedAddresses, guardedLookup, RefusedDestinationError, systemResolve, type Resolve } from './guarded-lookup';

/** A delivery gives up on an answer after this long, connection included (docs/alerts.md#outbound-requests). */
export const SEND_TIMEOUT_MS = 5000;
/** At most this much of an answer's body is kept for the delivery log; the rest is never read. */
export const ANSWER_KEPT_BYTES = 1024;

export interface WebhookRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** How one attempt went: answered (with its status), or not, and why. */
export interface SendResult {
  /** A 2xx answer. */
  ok: boolean;
  status?: number;
  latencyMs: number;
  /** The start of the answer's body, at most ANSWER_KEPT_BYTES bytes. */
  answer?: string;
  /** Why there is no 2xx: refused, unreachable, timed out, redirected, … */
  error?: string;
  /** The destination was refused before anything was sent (a private address, a bad URL): retrying cannot help. */
  refused?: boolean;
}

export type WebhookSender = (request: WebhookRequest) => Promise<SendResult>;

export interface SenderOptions {
  policy: AddressPolicy;
  resolve?: Resolve;
  timeoutMs?: number;
  now?: () => number;
}

/** Reads at most `limit` bytes of the answer, then lets go of it. */
function firstBytes(response: IncomingMessage, limit: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    const done = () => resolve(Buffer.concat(chunks).toString('utf8'));
    response.on('data', (chunk: Buffer) => {
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
      }
      // Enough kept: the rest of a large (or endless) answer is not read.
      if (kept >= limit) {
        response.destroy();
        done();
      }
    });
    response.on('end', done);
    response.on('error', done);
    response.on('close', done);
  });
}

/**
 * A sender of webhook POSTs that cannot be turned against the network
 * (docs/alerts.md#outbound-requests): the URL and every address its host
 * resolves to are checked before sending, the socket connects only through
 * a lookup that checks the address again (./guarded-lookup.ts), redirects
 * are answers like any other (never followed), the whole attempt is cut at
 * 5 s and at most 1 KB of the answer is kept.
 */
export function webhookSender(options: SenderOptions): WebhookSender {
  const resolve = options.resolve ?? systemResolve;
  const timeoutMs = options.timeoutMs ?? SEND_TIMEOUT_MS;
  const now = options.now ?? (() => performance.now());
  const lookup = guardedLookup(resolve, options.policy);

  return async (request) => {
    const startedAt = now();
    const latency = () => Math.round(now() - startedAt);
    const checked = checkDestinationUrl(request.url, options.policy);
    if (!checked.ok) return { ok: false, refused: true, error: `refused: ${checked.problem}`, latencyMs: latency() };
    const url = new URL(checked.url);
    if (literalAddress(url) === undefined) {
      try {
        await allowedAddresses(url.hostname, resolve, options.policy);
      } catch (error) {
        if (error instanceof RefusedDestinationError) return { ok: false, refused: true, error: `refused: ${error.message}`, latencyMs: latency() };
        throw error;
      }
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    return new Promise<SendResult>((settle) => {
      let settled = false;
      const finish = (result: Omit<SendResult, 'latencyMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        settle({ ...result, latencyMs: latency() });
      };
      const outgoing = send(
        url,
        {
          method: 'POST',
          headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
          lookup,
          // A socket of its own: never one a pool opened to another address.
          agent: false,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          void firstBytes(response, ANSWER_KEPT_BYTES).then((answer) => {
            const ok = status >= 200 && status < 300;
            const redirect =
              status >= 300 && status < 400 ? `redirect not followed (to ${String(response.headers.location ?? 'nowhere').slice(0, 200)})` : undefined;
            finish({ ok, status, answer, ...(ok ? {} : { error: redirect ?? `answered ${status}` }) });
          });
        },
      );
      const timer = setTimeout(() => {
        outgoing.destroy(new Error(`no answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      outgoing.on('error', (error: NodeJS.ErrnoException) => {
        const refused = error.code === 'EREFUSEDDESTINATION';
        finish({
          ok: false,
          ...(refused ? { refused } : {}),
          error: refused ? `refused: ${error.message}` : `${error.code ? `${error.code}: ` : ''}${error.message}`,
        });
      });
      outgoing.end(request.body);
    });
  };
}
