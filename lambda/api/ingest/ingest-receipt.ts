import { randomUUID } from 'node:crypto';
import type { RequestReceipt } from '../../ingest/receive-events';
import { callerOf, type RequestState } from '../request-state';

const DAY_SECONDS = 86_400;

/** What the server records with every report of this request: tenant and key, website, user agent, receive time, expiry. */
export function receiptOf(state: RequestState, nowMs: number, retentionDays: number): RequestReceipt {
  const caller = callerOf(state);
  if (!state.client) throw new Error('ingest route reached without a checked origin');
  return {
    factoryId: caller.factoryId,
    keyId: caller.keyId,
    origin: state.client.origin,
    userAgent: state.client.userAgent,
    ...(state.client.visitor === undefined ? {} : { visitor: state.client.visitor }),
    receivedAt: new Date(nowMs).toISOString(),
    expiresAt: Math.floor(nowMs / 1000) + retentionDays * DAY_SECONDS,
    requestToken: randomUUID(),
  };
}
