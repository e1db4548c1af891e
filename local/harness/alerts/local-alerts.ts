/**
 * Alerts under `npm start` (docs/alerts.md#under-npm-start): the same
 * notifier and deliverer code as on AWS, with timers in this process in
 * place of the SQS delivery queue. The notifier is handed to the local
 * stream poller as a consumer of the reports table's stream; the deliverer
 * takes the queued attempts when their timers fire, as an SQS batch of one.
 * Timers do not survive a restart, so on start the deliveries still pending
 * in the table are queued again, each at its due time.
 */
import type { DynamoDBStreamEvent, DynamoDBBatchResponse, SQSEvent, SQSBatchResponse } from 'aws-lambda';
import { ScanCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LOCAL_POLICY } from '../../../lambda/alerts/address-policy';
import { DynamoAffectedPairs } from '../../../lambda/infrastructure/store/reports/affected-items';
import { alertStoreOf } from '../../../lambda/alerts/alerts-wiring';
import { MAX_HOP_SECONDS } from '../../../lambda/alerts/deliver';
import { createDelivererHandler } from '../../../lambda/alerts/deliverer';
import { createNotifierHandler } from '../../../lambda/alerts/notifier';
import type { DeliveryMessage, DeliveryQueue } from '../../../lambda/alerts/ports';
import { webhookSender } from '../../../lambda/alerts/webhook-sender';
import { loggerFromEnv } from '../../../lambda/infrastructure/observability/logger';
import { DELIVERER_SERVICE_NAME, NOTIFIER_SERVICE_NAME } from '../../../lambda/infrastructure/observability/names';
import { issueChangeOf } from '../../../lambda/infrastructure/store/reports/stream-images';
import { localLinkBase } from '../control-rooms';

/** A message whose attempt could not be recorded is offered again after this, as SQS would after its visibility timeout. */
const REDELIVER_AFTER_MS = 30_000;

/** SQS with timers: each message is handed to the deliverer when its delay ends. */
export class TimerDeliveryQueue implements DeliveryQueue {
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopped = false;
  private sequence = 0;
  private running = 0;

  constructor(private readonly deliver: () => (event: SQSEvent) => Promise<SQSBatchResponse>) {}

  async enqueue(message: DeliveryMessage, delaySeconds: number): Promise<void> {
    this.after(Math.max(0, Math.min(MAX_HOP_SECONDS, delaySeconds)) * 1000, message);
  }

  private after(ms: number, message: DeliveryMessage): void {
    if (this.stopped) return;
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.run(message);
    }, ms);
    this.timers.add(timer);
  }

  private async run(message: DeliveryMessage): Promise<void> {
    const messageId = `local-${++this.sequence}`;
    const event = { Records: [{ messageId, body: JSON.stringify(message) }] } as SQSEvent;
    this.running += 1;
    try {
      const answer = await this.deliver()(event).catch(() => ({ batchItemFailures: [{ itemIdentifier: messageId }] }));
      if (answer.batchItemFailures.length > 0) this.after(REDELIVER_AFTER_MS, message);
    } finally {
      this.running -= 1;
    }
  }

  /** Messages waiting for their time or being delivered now: 0 when the queue is idle. */
  get pending(): number {
    return this.timers.size + this.running;
  }

  /** Timers still waiting (for tests and messages). */
  get waiting(): number {
    return this.timers.size;
  }

  stop(): void {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}

export interface LocalAlerts {
  /** The notifier, for the stream poller: the Lambda handler's own code. */
  notifier: (event: DynamoDBStreamEvent) => Promise<DynamoDBBatchResponse>;
  deliverer: (event: SQSEvent) => Promise<SQSBatchResponse>;
  queue: TimerDeliveryQueue;
  /** Deliveries found pending at start and queued again. */
  resumed: number;
  stop(): void;
}

/** The deliveries left pending in the table (a local table: a Scan is fine there, and only there). */
async function pendingDeliveries(doc: DynamoDBDocumentClient, table: string): Promise<{ message: DeliveryMessage; dueAt?: string }[]> {
  const found: { message: DeliveryMessage; dueAt?: string }[] = [];
  let cursor: Record<string, unknown> | undefined;
  do {
    const page = await doc.send(
      new ScanCommand({
        TableName: table,
        FilterExpression: 'begins_with(pk, :delivery) AND #status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':delivery': 'delivery#', ':pending': 'pending' },
        ExclusiveStartKey: cursor,
      }),
    );
    for (const item of page.Items ?? []) {
      const attempts = Number(item.attempts ?? 0);
      // An attempt that was in flight when npm start stopped is taken over once its lease has run out.
      const attempt = item.leaseUntil !== undefined ? attempts : attempts + 1;
      found.push({
        message: { factoryId: String(item.factoryId), destinationId: String(item.destinationId), sk: String(item.sk), attempt },
        dueAt: typeof item.leaseUntil === 'string' ? item.leaseUntil : typeof item.nextAttemptAt === 'string' ? item.nextAttemptAt : undefined,
      });
    }
    cursor = page.LastEvaluatedKey;
  } while (cursor);
  return found;
}

/** How a local alert runner starts: npm start takes the defaults. */
export interface LocalAlertsOptions {
  now?: () => number;
  /** The sender's timeout (a test whose receiver shares a busy process may give it more time). */
  sendTimeoutMs?: number;
  /** Queue again the deliveries the table holds as pending (default): npm start resumes what it left; a test's own runner leaves other files' deliveries alone. */
  resumePending?: boolean;
  /** The reports table, where an alert reads who its issue affects (none: alerts carry the counts only). */
  reportsTable?: string;
}

/** Starts the local alert runner on the store npm start serves. */
export async function startLocalAlerts(doc: DynamoDBDocumentClient, alertsTable: string, options: LocalAlertsOptions = {}): Promise<LocalAlerts> {
  const { now = Date.now, sendTimeoutMs, resumePending = true, reportsTable } = options;
  const store = alertStoreOf(doc, alertsTable);
  let deliverer: LocalAlerts['deliverer'] | undefined;
  const queue = new TimerDeliveryQueue(() => deliverer as LocalAlerts['deliverer']);
  deliverer = createDelivererHandler(
    { store, queue, send: webhookSender({ policy: LOCAL_POLICY, ...(sendTimeoutMs === undefined ? {} : { timeoutMs: sendTimeoutMs }) }) },
    loggerFromEnv(process.env, DELIVERER_SERVICE_NAME),
  );
  const notifier = createNotifierHandler(
    {
      store,
      queue,
      // Read at each alert: the control room open now, on whatever port (control-rooms.ts).
      get linkBase() {
        return localLinkBase();
      },
      ...(reportsTable === undefined ? {} : { affected: new DynamoAffectedPairs(doc, { reports: reportsTable }) }),
    },
    issueChangeOf,
    loggerFromEnv(process.env, NOTIFIER_SERVICE_NAME),
  );
  const pending = resumePending ? await pendingDeliveries(doc, alertsTable) : [];
  for (const { message, dueAt } of pending) {
    const waitSeconds = dueAt === undefined ? 0 : Math.max(0, (Date.parse(dueAt) - now()) / 1000);
    await queue.enqueue(message, waitSeconds);
  }
  return { notifier, deliverer, queue, resumed: pending.length, stop: () => queue.stop() };
}
