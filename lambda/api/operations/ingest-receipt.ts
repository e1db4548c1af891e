import { randomUUID } from 'node:crypto';
import type { RequestReceipt } from '../../ingest/receive-events';
import type { ApiContext } from '../types';
import { callerOf } from './caller';

const DAY_SECONDS = 86_400;

/** What the server records with every report of this request: tenant and key, website, user agent, receive time, expiry. */
export function receiptOf(context: ApiContext, nowMs: number, retentionDays: number): RequestReceipt {
  const caller = callerOf(context);
  if (!context.client) throw new Error('ingest route reached without a checked origin');
  return {
    factoryId: caller.factoryId,
    keyId: caller.keyId,
    origin: context.client.origin,
    userAgent: context.client.userAgent,
    receivedAt: new Date(nowMs).toISOString(),
    expiresAt: Math.floor(nowMs / 1000) + retentionDays * DAY_SECONDS,
    requestToken: randomUUID(),
  };
}
