import { randomUUID } from 'node:crypto';
import type { RequestReceipt } from '../receive-events';
import { callerOf, type RequestState } from '../../infrastructure/http/request-state';
import type { IngestSlot } from './ingest-slot';

const DAY_SECONDS = 86_400;

/** What the server records with every report of this request: tenant and key, website, user agent, receive time, expiry. */
export function receiptOf(state: RequestState<IngestSlot>, nowMs: number, retentionDays: number): RequestReceipt {
  const caller = callerOf(state);
  const { client } = state.slot;
  if (!client) throw new Error('ingest route reached without a checked origin');
  return {
    factoryId: caller.factoryId,
    keyId: caller.keyId,
    origin: client.origin,
    userAgent: client.userAgent,
    ...(client.visitor === undefined ? {} : { visitor: client.visitor }),
    receivedAt: new Date(nowMs).toISOString(),
    expiresAt: Math.floor(nowMs / 1000) + retentionDays * DAY_SECONDS,
    requestToken: randomUUID(),
  };
}
