import { randomUUID } from 'node:crypto';
import { UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { AuthDecision, KeyAuthorizer } from '../domain/ports';
import { minuteWindow, retryAfterSeconds } from '../domain/rate-window';
import { isConditionalCheckFailed, storageCall, StorageUnavailableError } from './errors';
import type { KeyItem } from './key-item';

type Attempt = 'count' | 'open';

const NAMES = {
  '#status': 'status',
  '#keyType': 'keyType',
  '#window': 'rlWindow',
  '#count': 'rlCount',
  '#lastUsedAt': 'lastUsedAt',
  '#lastRequest': 'rlLastRequest',
};
const USABLE = '#status = :active AND #keyType = :secret';
/** Not this very request again: an SDK retry of a write that landed but whose answer was lost. */
const NOT_REPEATED = '(attribute_not_exists(#lastRequest) OR #lastRequest <> :request)';

/**
 * Authentication and rate limiting in one conditional UpdateItem on the key's
 * item, so a revoked key fails on its very next request and the count is
 * exact across any number of concurrent Lambdas.
 *
 * The limit is a fixed one-minute window held in two attributes. Moving into
 * a new window and counting inside the current one need different updates,
 * so each request makes one guess: "count" (the window it last saw for this
 * key is still current) or "open" (a new window). A wrong guess fails its
 * condition and the item returned with the failure says what to do instead;
 * this costs a second call only on the first request of a minute that another
 * container already opened.
 *
 * Each request writes its own token with its count. When the SDK retries a
 * write that landed but whose answer was lost, the retry fails its condition
 * and the returned item carries our token: the request is allowed, counted
 * once. (Should another request on the same key land in between, the token
 * is no longer ours and the retry counts again: the limit then errs strict.)
 */
export class DynamoKeyAuthorizer implements KeyAuthorizer {
  /**
   * Per key hash allowed in this container: its factory and key id (never
   * change) and the window last seen (the basis of the guess).
   */
  private readonly seen = new Map<string, { factoryId: string; keyId: string; window: number }>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async authorize(keyHash: string, nowMs: number): Promise<AuthDecision> {
    // Marks the count this request makes, so a retry of a write that landed counts nothing more.
    const request = randomUUID();
    let window = minuteWindow(nowMs);
    let attempt: Attempt = this.seen.get(keyHash)?.window === window ? 'count' : 'open';
    // Three tries cover any interleaving of "open" and "count" at a window edge.
    for (let tries = 0; tries < 3; tries += 1) {
      try {
        const result = await storageCall('UpdateItem (authorize key)', () =>
          this.doc.send(this.command(keyHash, attempt, window, nowMs, request)),
        );
        const item = result.Attributes as KeyItem;
        this.remember(keyHash, item, window);
        return { outcome: 'allowed', factoryId: item.factoryId, keyId: item.keyId };
      } catch (error) {
        if (!isConditionalCheckFailed(error)) throw error;
        const old = error.Item ? (unmarshall(error.Item as Record<string, AttributeValue>) as KeyItem) : undefined;
        if (!old || old.keyType !== 'secret' || old.status !== 'active') {
          this.seen.delete(keyHash);
          return { outcome: old?.keyType === 'secret' ? 'revoked' : 'unknown' };
        }
        if (old.rlLastRequest === request) {
          // Our own earlier attempt landed (its answer was lost): the request is counted, once.
          this.remember(keyHash, old, old.rlWindow ?? window);
          return { outcome: 'allowed', factoryId: old.factoryId, keyId: old.keyId };
        }
        const stored = old.rlWindow ?? -1;
        if (stored >= window) {
          // Current window (or a container whose clock runs slightly ahead opened the next one).
          window = stored;
          if ((old.rlCount ?? 0) >= old.rateLimit) {
            this.remember(keyHash, old, window);
            return {
              outcome: 'throttled',
              retryAfterSeconds: retryAfterSeconds(window, nowMs),
              limitPerMinute: old.rateLimit,
            };
          }
          attempt = 'count';
        } else {
          attempt = 'open';
        }
      }
    }
    throw new StorageUnavailableError('UpdateItem (authorize key)', new Error('the key item kept changing under three attempts'));
  }

  private command(keyHash: string, attempt: Attempt, window: number, nowMs: number, request: string): UpdateCommand {
    const count = attempt === 'count';
    return new UpdateCommand({
      TableName: this.tableName,
      Key: { keyHash },
      UpdateExpression: count
        ? 'SET #count = #count + :one, #lastUsedAt = :now, #lastRequest = :request'
        : 'SET #window = :window, #count = :one, #lastUsedAt = :now, #lastRequest = :request',
      ConditionExpression: count
        ? `${USABLE} AND ${NOT_REPEATED} AND #window = :window AND #count < #limit`
        : `${USABLE} AND ${NOT_REPEATED} AND (attribute_not_exists(#window) OR #window < :window)`,
      ExpressionAttributeNames: count ? { ...NAMES, '#limit': 'rateLimit' } : NAMES,
      ExpressionAttributeValues: {
        ':active': 'active',
        ':secret': 'secret',
        ':window': window,
        ':one': 1,
        ':now': new Date(nowMs).toISOString(),
        ':request': request,
      },
      ReturnValues: 'ALL_NEW',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    });
  }

  knownCaller(keyHash: string): { factoryId: string; keyId: string } | undefined {
    const known = this.seen.get(keyHash);
    return known && { factoryId: known.factoryId, keyId: known.keyId };
  }

  private remember(keyHash: string, item: KeyItem, window: number): void {
    // Bounded: only active secret keys land here, and a container serves few.
    if (this.seen.size > 10_000) this.seen.clear();
    this.seen.set(keyHash, { factoryId: item.factoryId, keyId: item.keyId, window });
  }
}
