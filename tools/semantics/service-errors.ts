/**
 * The answers DynamoDB gives when it refuses a write, in its wire form
 * (AWS JSON 1.0: HTTP 400, `__type` naming the exception), so that an SDK
 * parses them into the same exception classes and retries them, or not, as it
 * does against AWS ("Error handling with DynamoDB", Programming.Errors.html):
 *
 * - ProvisionedThroughputExceededException: a write over a partition's
 *   ceiling. Its ThrottlingReasons name the limit and the resource, as AWS
 *   reports a key range over its throughput (API_ThrottlingReason.html,
 *   `TableWriteKeyRangeThroughputExceeded`, `IndexWriteKeyRangeThroughputExceeded`).
 *   The AWS SDK for JavaScript v3 classifies it as throttling by its name and
 *   retries it with backoff.
 * - TransactionConflictException: a plain write on an item a transaction holds.
 * - TransactionCanceledException: one CancellationReasons entry per action, in
 *   order, `None` for the actions that were not the cause, and a message that
 *   lists the codes, as DynamoDB (and DynamoDB Local) words it. The SDK retries
 *   neither of the last two: the caller decides.
 */
import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';

export interface ProxyAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const NAMESPACE = 'com.amazonaws.dynamodb.v20120810';

/** A JSON answer as DynamoDB sends it (with the CRC32 of the body that older SDKs check). */
export function jsonAnswer(status: number, body: unknown): ProxyAnswer {
  const text = JSON.stringify(body);
  return {
    status,
    headers: {
      'content-type': 'application/x-amz-json-1.0',
      'x-amzn-requestid': randomUUID(),
      'x-amz-crc32': String(crc32(Buffer.from(text, 'utf8'))),
    },
    body: text,
  };
}

/** On-demand tables word a partition over its ceiling this way, whichever limit was met. */
export const THROTTLED_MESSAGE =
  'Throughput exceeds the current capacity of your table or index. DynamoDB is automatically scaling your table or index so please try again shortly. If exceptions persist, check if you have a hot key: https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/bp-partition-key-design.html';

export interface ThrottlingReason {
  reason: 'TableWriteKeyRangeThroughputExceeded' | 'IndexWriteKeyRangeThroughputExceeded';
  resource: string;
}

export const throughputExceeded = (reasons: ThrottlingReason[]): ProxyAnswer =>
  jsonAnswer(400, { __type: `${NAMESPACE}#ProvisionedThroughputExceededException`, message: THROTTLED_MESSAGE, ThrottlingReasons: reasons });

export const CONFLICT_MESSAGE = 'Transaction is ongoing for the item';

export const transactionConflict = (): ProxyAnswer => jsonAnswer(400, { __type: `${NAMESPACE}#TransactionConflictException`, message: CONFLICT_MESSAGE });

export type CancellationCode = 'None' | 'TransactionConflict' | 'ThrottlingError';

const REASON_MESSAGES: Record<CancellationCode, string | undefined> = {
  None: undefined,
  TransactionConflict: CONFLICT_MESSAGE,
  ThrottlingError: THROTTLED_MESSAGE,
};

export function transactionCanceled(codes: CancellationCode[]): ProxyAnswer {
  const reasons = codes.map((code) => (REASON_MESSAGES[code] ? { Code: code, Message: REASON_MESSAGES[code] } : { Code: code }));
  return jsonAnswer(400, {
    __type: `${NAMESPACE}#TransactionCanceledException`,
    CancellationReasons: reasons,
    Message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
  });
}
