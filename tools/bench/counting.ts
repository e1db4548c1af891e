import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { COMPANY_SK_PREFIX, CONTACT_SK_PREFIX, type TableNames } from '../../lambda/infrastructure/store/schema';

/** What a call touched, by table and key: the key item, a contact, a company, a report, a limiter item, or another item. */
export type CallItem = 'key' | 'contact' | 'company' | 'report' | 'limiter' | 'other';

/** One DynamoDB call a request made, as seen by the SDK client it went through. */
export interface CallRecord {
  /** `UpdateItem`, `GetItem`, … */
  operation: string;
  table: string;
  /** What the call touched: the key item, a contact, a company, a report, a limiter item, or another item. */
  item: CallItem;
  /** The key as the command gave it (document-client form). */
  key: Record<string, unknown> | undefined;
  /** performance.now() when the call was sent and when its answer (or error) arrived. */
  start: number;
  end: number;
  /** Error name, when the call failed (`ConditionalCheckFailedException` for a refused condition). */
  error?: string;
  /** Capacity units DynamoDB reported (ReturnConsumedCapacity); absent on errors. */
  consumedUnits?: number;
}

/** The calls of one request and its outcome. */
export interface RequestTrace {
  calls: CallRecord[];
}

interface CommandInput {
  TableName?: string;
  Key?: Record<string, unknown>;
  ReturnConsumedCapacity?: string;
  /** TransactWriteItems: the table of its first item names the call. */
  TransactItems?: { Put?: { TableName?: string; Item?: Record<string, unknown> }; Update?: { TableName?: string; Key?: Record<string, unknown> } }[];
}

interface CommandOutput {
  /** One object for a single-item call, one per table for a transaction. */
  ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
}

/**
 * Counts DynamoDB calls per request from outside the service: an SDK
 * middleware on the client the benchmark hands to the stores, and an async
 * context opened around each handler invocation, so concurrent requests
 * never mix their calls. Calls outside any traced request are not recorded.
 */
export class CallRecorder {
  private readonly scope = new AsyncLocalStorage<RequestTrace>();

  constructor(private readonly tables: TableNames) {}

  /** Runs one request with a fresh trace; the trace is complete when the promise settles. */
  trace<T>(work: () => Promise<T>): { trace: RequestTrace; result: Promise<T> } {
    const trace: RequestTrace = { calls: [] };
    return { trace, result: this.scope.run(trace, work) };
  }

  /**
   * Installs the recorder on a client. With `consumedCapacity`, every call
   * also asks DynamoDB for the capacity it consumed: an extra response field
   * the service never reads.
   */
  install(client: DynamoDBClient, options: { consumedCapacity: boolean }): void {
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const trace = this.scope.getStore();
        if (!trace) return next(args);
        const input = args.input as CommandInput;
        const first = input.TransactItems?.[0];
        const record: CallRecord = {
          operation: (context.commandName ?? 'unknown').replace(/Command$/, ''),
          table: input.TableName ?? first?.Put?.TableName ?? first?.Update?.TableName ?? '?',
          item: this.itemOf(first ? { TableName: first.Put?.TableName ?? first.Update?.TableName, Key: first.Update?.Key, Item: first.Put?.Item } : input),
          key: input.Key,
          start: performance.now(),
          end: Number.NaN,
        };
        trace.calls.push(record);
        try {
          // A copy: the service's own command input is left as it built it.
          const result = await next(options.consumedCapacity ? { ...args, input: { ...input, ReturnConsumedCapacity: 'TOTAL' } } : args);
          const consumed = (result.output as CommandOutput).ConsumedCapacity;
          const units = Array.isArray(consumed) ? consumed.reduce((sum, table) => sum + (table.CapacityUnits ?? 0), 0) : consumed?.CapacityUnits;
          if (units !== undefined) record.consumedUnits = units;
          return result;
        } catch (error) {
          record.error = error instanceof Error ? error.name : 'Error';
          throw error;
        } finally {
          record.end = performance.now();
        }
      },
      // Outermost step: the time includes the SDK's retries and any injected delay.
      { step: 'initialize', priority: 'high', name: 'benchCallRecorder', override: true },
    );
  }

  private itemOf(input: CommandInput & { Item?: Record<string, unknown> }): CallRecord['item'] {
    if (input.TableName === this.tables.keys) return 'key';
    if (input.TableName === this.tables.reports) {
      const pk = input.Key?.pk ?? input.Item?.pk;
      return typeof pk === 'string' && pk.startsWith('limit#') ? 'limiter' : 'report';
    }
    const sk = input.Key?.sk;
    if (input.TableName === this.tables.contacts && typeof sk === 'string') {
      if (sk.startsWith(CONTACT_SK_PREFIX)) return 'contact';
      if (sk.startsWith(COMPANY_SK_PREFIX)) return 'company';
    }
    return 'other';
  }
}
