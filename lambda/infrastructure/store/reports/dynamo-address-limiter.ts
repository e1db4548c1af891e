import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { StorageUnavailableError } from '../../../kernel/errors';
import { decideRate, intervalUs, toleranceUs, toMicroseconds, type RatePolicy } from '../../../kernel/rate-limit';
import { admitInView, unchargedUs } from '../../../kernel/rate-view';
import type { AddressLimiter, AddressDecision, AddressLimitName } from '../../../ingest/ports';
import type { AddressLimits } from '../../../ingest/limits';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';
import { Expression } from '../expression';
import { gcraUpdate } from '../keys/key-limiter';
import { notRepeated } from '../request-token';
import { EXPIRES_AT, limiterKey } from '../schema';
import { SLOT_CAP, SLOT_COUNT, type SessionCarry } from '../../../ingest/sessions/session-carry';
import { SESSION_ATTRIBUTES, slotAttribute } from './session-attributes';

/** The attribute holding each limit's TAT on a limiter item (key-limiter.ts, gcraUpdate). */
const TAT: Record<AddressLimitName, 'rqTat' | 'frTat'> = { requests: 'rqTat', featureRequests: 'frTat' };

/** A limiter item: one per publishable key and client address. */
type LimiterItem = Partial<Record<'rqTat' | 'frTat', number>> & { lastRequest?: string } & Record<string, unknown>;

/** What a container keeps of one client: the item as last seen (the next write's guess) and its view of the per-request limit (rate-view.ts). */
interface ClientView {
  item: LimiterItem;
  /** The per-request TAT with the requests admitted here since the item was seen (undefined: none). */
  viewTatUs?: number;
  /**
   * This client's write in flight here: the next of its requests waits for it, so that the view's backlog is
   * carried by one write at a time and concurrent requests are decided in turn, as the rule decides them.
   */
  pending?: Promise<unknown>;
}

/** Clients a container keeps a view of: past it, drained views are dropped first, then all (rate-view.ts: the limit errs loose by at most one burst each). */
const MAX_VIEWS = 10_000;

export interface AddressLimiterOptions {
  /**
   * Admit a client's plain requests from this container's own view while it
   * stays within the burst (lambda/kernel/rate-view.ts), writing the item only
   * when it nears its limit. Off: every request writes, and the limit holds
   * exactly across containers.
   */
  countInContainer?: boolean;
}

/** How many elements a slot's string set holds on an item as read (DocumentClient sets are Sets). */
const slotSize = (item: LimiterItem, slot: number): number => {
  const value = item[slotAttribute(slot)];
  return value instanceof Set ? value.size : 0;
};

/** Seconds a limiter item must outlive its last write: past it, every TAT it can hold is in the past (an idle limit). */
function horizonSeconds(limits: AddressLimits): number {
  const reach = (policy: RatePolicy) => intervalUs(policy) + toleranceUs(policy);
  return Math.ceil(Math.max(reach(limits.requests), reach(limits.featureRequests)) / 1e6) + 60;
}

/**
 * The per-address limits (60 requests per minute, 10 feature requests per
 * hour, per publishable key and client address) on their own small item in
 * the reports table, keyed by the key id and the address's keyed hash
 * (lambda/ingest/address.ts), never the address itself. A map on the key's
 * item would make every key call's write grow with the number of visitors;
 * this item stays under 1 KB (1 WCU per request).
 *
 * The same GCRA rule and conditional-update shapes as the key's own limit
 * (key-limiter.ts): one UpdateItem advances every limit the request counts
 * against, all or nothing, guessing each one idle or busy from what this
 * container last saw; a wrong guess or a refusal fails the condition and the
 * item returned with the failure decides (a second call only on a wrong
 * guess). A request token makes an SDK retry of a write that landed count
 * once. Every write pushes the item's expiry (DynamoDB TTL) past every TAT it
 * can hold, so an item is only ever removed once it is idle: a client that
 * stops calling leaves nothing behind for long.
 */
export class DynamoAddressLimiter implements AddressLimiter {
  /** What this container keeps of each client: the item's TATs last seen (the next write's guess) and its view. */
  private readonly views = new Map<string, ClientView>();
  private readonly horizon: number;

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    private readonly limits: AddressLimits,
    private readonly options: AddressLimiterOptions = {},
  ) {
    this.horizon = horizonSeconds(limits);
  }

  async admit(
    subject: { keyId: string; addressHash: string },
    names: readonly AddressLimitName[],
    nowMs: number,
    sessions?: SessionCarry,
  ): Promise<AddressDecision> {
    const pk = limiterKey(subject.keyId, subject.addressHash);
    const nowUs = toMicroseconds(nowMs);
    const view = this.viewOf(pk, nowUs);
    const inView = this.options.countInContainer === true && names.includes('requests');
    if (inView) while (view.pending) await view.pending.catch(() => undefined);
    // A plain request (no session to record, no feature request's hourly limit) within the view's burst: no write.
    if (inView && !sessions && names.length === 1) {
      const next = admitInView({ sharedTatUs: view.item.rqTat, viewTatUs: view.viewTatUs }, nowUs, this.limits.requests);
      if (next !== undefined) {
        view.viewTatUs = next;
        return { admitted: true };
      }
    }
    // This write carries what the view admitted since the item was seen; taken now so a write beside it does not carry it twice.
    const uncharged = inView ? unchargedUs({ sharedTatUs: view.item.rqTat, viewTatUs: view.viewTatUs }, nowUs) : 0;
    view.viewTatUs = undefined;
    const written = this.write(pk, view, names, nowUs, uncharged, sessions);
    if (!inView) return written;
    view.pending = written;
    try {
      return await written;
    } catch (error) {
      // The write failed: what the view admitted is still owed, by the next one.
      if (uncharged > 0) view.viewTatUs = Math.max(view.item.rqTat ?? 0, nowUs) + uncharged;
      throw error;
    } finally {
      if (view.pending === written) view.pending = undefined;
    }
  }

  private async write(
    pk: string,
    view: ClientView,
    names: readonly AddressLimitName[],
    nowUs: number,
    uncharged: number,
    sessions?: SessionCarry,
  ): Promise<AddressDecision> {
    const request = randomUUID();
    let known = view.item;
    let carry = sessions;
    let dropped = sessions?.dropped ?? 0;
    const admitted = (): AddressDecision => (dropped > 0 ? { admitted: true, sessionsDropped: dropped } : { admitted: true });
    for (let tries = 0; tries < 3; tries += 1) {
      try {
        const result = await storageCall('UpdateItem (address limit)', () => this.doc.send(this.command(pk, names, known, nowUs, request, uncharged, carry)));
        view.item = result.Attributes as LimiterItem;
        return admitted();
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const old = itemOfFailure<LimiterItem>(error) ?? {};
        view.item = old;
        if (old.lastRequest === request) return admitted();
        known = old;
        const refusals = names.flatMap((name) => {
          // The per-request limit as if the view's admissions had been written one by one.
          const extra = name === 'requests' ? uncharged : 0;
          const tatUs = extra > 0 ? Math.max(old[TAT[name]] ?? 0, nowUs) + extra : old[TAT[name]];
          const decision = decideRate({ tatUs }, nowUs, this.limits[name]);
          return decision.admitted ? [] : [{ name, retryAfterSeconds: decision.retryAfterSeconds }];
        });
        const worst = refusals.sort((a, b) => b.retryAfterSeconds - a.retryAfterSeconds)[0];
        if (worst) {
          // Refused: what the view admitted is still owed, by the next write.
          if (uncharged > 0) view.viewTatUs = Math.max(old.rqTat ?? 0, nowUs) + uncharged;
          return { admitted: false, limit: worst.name, retryAfterSeconds: worst.retryAfterSeconds };
        }
        // The visitor's slot is full: the request is admitted, its session statuses dropped (the aggregates still go).
        if (carry && carry.elements.length > 0 && slotSize(old, carry.slot) + carry.elements.length > SLOT_CAP) {
          dropped += carry.elements.length;
          carry = { ...carry, elements: [], details: {} };
        }
      }
    }
    throw new StorageUnavailableError('UpdateItem (address limit)', new Error('the limiter item kept changing under three attempts'));
  }

  private command(
    pk: string,
    names: readonly AddressLimitName[],
    known: LimiterItem,
    nowUs: number,
    request: string,
    uncharged: number,
    sessions?: SessionCarry,
  ): UpdateCommand {
    const expression = new Expression();
    // No limit held (a servers key's request carrying sessions): no TAT is read, so no time value either.
    const now = names.length > 0 ? expression.value(nowUs) : undefined;
    const token = expression.value(request);
    expression
      .set('lastRequest', token)
      .set(EXPIRES_AT, Math.ceil(nowUs / 1e6) + this.horizon)
      .when(notRepeated(expression, 'lastRequest', token));
    for (const name of names) {
      if (now === undefined) break;
      const knownTat = known[TAT[name]];
      const from = knownTat !== undefined && knownTat > nowUs ? 'busy' : 'idle';
      gcraUpdate(expression, from, this.limits[name], { tat: TAT[name], now, nowUs }, name === 'requests' ? uncharged : 0);
    }
    if (sessions) carrySessions(expression, sessions, request);
    return new UpdateCommand({
      TableName: this.tableName,
      Key: { pk },
      ...expression.forUpdate(),
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  /** This container's view of a client, made when first needed. Bounded: a container forgets rather than grow with every visitor. */
  private viewOf(pk: string, nowUs: number): ClientView {
    const kept = this.views.get(pk);
    if (kept) return kept;
    if (this.views.size >= MAX_VIEWS) this.forget(nowUs);
    const view: ClientView = { item: {} };
    this.views.set(pk, view);
    return view;
  }

  /** Drops the views that owe nothing (drained, no write in flight); if that is not enough, every view not writing. */
  private forget(nowUs: number): void {
    const idle = (view: ClientView) => !view.pending && (view.viewTatUs ?? 0) <= nowUs;
    for (const [pk, view] of this.views) if (idle(view)) this.views.delete(pk);
    if (this.views.size < MAX_VIEWS / 2) return;
    for (const [pk, view] of this.views) if (!view.pending) this.views.delete(pk);
  }
}

/**
 * The sessions a request carries, in its limiter write (lambda/ingest/sessions/session-carry.ts): the statuses
 * reached added to the current slot's set (under SLOT_CAP, a condition: a full slot refuses the write, which is
 * made again without them), the oldest slot emptied, the details of this request's sessions and its aggregate rows
 * (with the request's token, so only this write's record counts them) in place of the last request's.
 */
function carrySessions(expression: Expression, sessions: SessionCarry, request: string): void {
  expression.set(SESSION_ATTRIBUTES.factory, sessions.factoryId);
  if (sessions.elements.length > 0) {
    const slot = slotAttribute(sessions.slot);
    expression
      .add(slot, new Set(sessions.elements))
      .remove(slotAttribute((sessions.slot + 1) % SLOT_COUNT))
      .set(SESSION_ATTRIBUTES.details, sessions.details)
      .when(expression.or(expression.notExists(slot), expression.sizeIs(slot, '<=', SLOT_CAP - sessions.elements.length)));
  }
  if (sessions.aggregates.length > 0 || sessions.discards.length > 0)
    expression.set(SESSION_ATTRIBUTES.aggregates, { t: request, r: sessions.aggregates, d: sessions.discards });
}
