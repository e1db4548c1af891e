import { DeleteCommand, GetCommand, PutCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { generateKey, type KeyType } from '../../../kernel/api-key';
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from '../../../kernel/limits';
import { intervalUs, perMinutePolicy } from '../../../kernel/rate-limit';
import { DEFAULT_PUBLISHABLE_RATE_LIMIT } from '../../../kernel/limits';
import { normalizeOriginList } from '../../../kernel/origins';
import { sentryProjectId } from '../../../kernel/sentry-project';
import { batchGet } from '../batch-get';
import { isConditionalCheckFailed } from '../errors';
import { Expression, QueryExpression } from '../expression';
import type { KeyView } from '../../../control/ports';
import type { KeyItem } from './key-item';
import { KEYS_BY_FACTORY, KEYS_BY_KEY_ID, KEYS_KEY } from '../schema';

/** A key as operators see it (the control room's view, defined with its port): never the secret, never its hash. */
export type KeySummary = KeyView;

export interface CreateKeyOptions {
  factoryId: string;
  type: KeyType;
  rateLimit?: number;
  origins?: string[];
  /** Publishable keys only: also accept requests without an Origin (a customer's servers). */
  servers?: boolean;
  now?: Date;
}

/** The limiter's step T (see DynamoKeyAuthorizer): stored with the key so a container's first request needs no read. */
function limiterStep(rateLimit: number): Pick<KeyItem, 'rlStep'> {
  return { rlStep: intervalUs(perMinutePolicy(rateLimit)) };
}

function summarize(item: KeyItem): KeySummary {
  const summary: KeySummary = {
    keyId: item.keyId,
    factoryId: item.factoryId,
    type: item.keyType,
    status: item.status,
    rateLimit: item.rateLimit,
    hint: item.hint,
    createdAt: item.createdAt,
  };
  if (item.revokedAt) summary.revokedAt = item.revokedAt;
  if (item.lastUsedAt) summary.lastUsedAt = item.lastUsedAt;
  if (item.origins) summary.origins = item.origins;
  if (item.keyType === 'publishable') summary.servers = item.servers === true;
  if (item.sentryProjectId) summary.sentryProjectId = item.sentryProjectId;
  if (item.exposedFirstAt) {
    summary.exposed = { firstSeenAt: item.exposedFirstAt, lastSeenAt: item.exposedLastAt ?? item.exposedFirstAt, count: item.exposedCount ?? 1 };
  }
  return summary;
}

/** Issuing, listing and revoking keys: the operations behind the `keys` command. */
export class KeyAdmin {
  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  /**
   * Stores a new key (its hash, never the secret) and returns the secret
   * once. A publishable key's origins are normalized and checked here
   * (lambda/kernel/origins.ts): a bad list throws, naming the problem.
   * Without a rate limit a secret key gets 30,000 requests per minute, a
   * publishable key 600.
   */
  async create(options: CreateKeyOptions): Promise<KeySummary & { key: string }> {
    let origins: string[] | undefined;
    if (options.type === 'publishable') {
      const checked = normalizeOriginList(options.origins ?? []);
      if (!checked.ok) throw new Error(checked.problem);
      origins = checked.origins;
    } else if ((options.origins ?? []).length > 0) {
      throw new Error('origins are only for publishable keys');
    } else if (options.servers) {
      throw new Error('servers is only for publishable keys');
    }
    const key = generateKey(options.type);
    const rateLimit = options.rateLimit ?? (options.type === 'publishable' ? DEFAULT_PUBLISHABLE_RATE_LIMIT : DEFAULT_RATE_LIMIT_PER_MINUTE);
    const item: KeyItem = {
      keyHash: key.keyHash,
      keyId: key.keyId,
      factoryId: options.factoryId,
      keyType: options.type,
      status: 'active',
      rateLimit,
      createdAt: (options.now ?? new Date()).toISOString(),
      hint: key.hint,
      ...limiterStep(rateLimit),
    };
    if (origins) item.origins = origins;
    if (options.type === 'publishable') {
      if (options.servers) item.servers = true;
      item.sentryProjectId = sentryProjectId(key.keyId);
    }
    const absent = new Expression();
    absent.when(absent.notExists(KEYS_KEY.partitionKey));
    await this.doc.send(new PutCommand({ TableName: this.tableName, Item: item, ...absent.forCondition() }));
    return { key: key.secret, ...summarize(item) };
  }

  /** The factory's keys, oldest first. */
  async list(factoryId: string): Promise<KeySummary[]> {
    const hashes: string[] = [];
    const ofFactory = new QueryExpression();
    ofFactory.key(ofFactory.is(KEYS_BY_FACTORY.partitionKey, '=', factoryId));
    let cursor: Record<string, unknown> | undefined;
    do {
      const page = await this.doc.send(
        new QueryCommand({ TableName: this.tableName, IndexName: KEYS_BY_FACTORY.indexName, ...ofFactory.forQuery(), ExclusiveStartKey: cursor }),
      );
      for (const item of page.Items ?? []) hashes.push(item.keyHash as string);
      cursor = page.LastEvaluatedKey;
    } while (cursor);
    const items = await batchGet<KeyItem>(
      this.doc,
      this.tableName,
      hashes.map((keyHash) => ({ keyHash })),
      { operation: 'BatchGetItem (keys)' },
    );
    return items.map(summarize).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.keyId.localeCompare(b.keyId));
  }

  /** The factory a key belongs to (what `keys -- revoke <keyId>` needs to name it), undefined when there is no such key. */
  async factoryOf(keyId: string): Promise<string | undefined> {
    const withId = new QueryExpression();
    withId.key(withId.is(KEYS_BY_KEY_ID.partitionKey, '=', keyId));
    const found = await this.doc.send(new QueryCommand({ TableName: this.tableName, IndexName: KEYS_BY_KEY_ID.indexName, ...withId.forQuery() }));
    const keyHash = found.Items?.[0]?.keyHash as string | undefined;
    if (!keyHash) return undefined;
    const item = await this.doc.send(new GetCommand({ TableName: this.tableName, Key: { keyHash }, ProjectionExpression: 'factoryId' }));
    return item.Item?.factoryId as string | undefined;
  }

  /**
   * Revokes a key; from its next request on it gives 401. Revoking twice is
   * harmless and keeps the first revocation time. Undefined when no such key
   * (or, given `factoryId`, when the key is another factory's: the control
   * room's keys.revoke acts within one factory).
   */
  async revoke(keyId: string, now: Date = new Date(), factoryId?: string): Promise<KeySummary | undefined> {
    const withId = new QueryExpression();
    withId.key(withId.is(KEYS_BY_KEY_ID.partitionKey, '=', keyId));
    const found = await this.doc.send(new QueryCommand({ TableName: this.tableName, IndexName: KEYS_BY_KEY_ID.indexName, ...withId.forQuery() }));
    const keyHash = found.Items?.[0]?.keyHash as string | undefined;
    if (!keyHash) return undefined;
    const revoke = new Expression();
    revoke
      .set('status', 'revoked')
      .setOnce('revokedAt', now.toISOString())
      .when(revoke.exists(KEYS_KEY.partitionKey), ...(factoryId === undefined ? [] : [revoke.is('factoryId', '=', factoryId)]));
    try {
      const result = await this.doc.send(new UpdateCommand({ TableName: this.tableName, Key: { keyHash }, ...revoke.forUpdate(), ReturnValues: 'ALL_NEW' }));
      return summarize(result.Attributes as KeyItem);
    } catch (error) {
      if (isConditionalCheckFailed(error)) return undefined;
      throw error;
    }
  }

  /**
   * Removes a key a command issued for its own use (`sourcemaps upload`
   * without --key) once it is done: gone from `keys list`, unknown from its
   * next request on. Only a key of `factoryId`; false when there was none.
   */
  async remove(keyId: string, factoryId: string): Promise<boolean> {
    const withId = new QueryExpression();
    withId.key(withId.is(KEYS_BY_KEY_ID.partitionKey, '=', keyId));
    const found = await this.doc.send(new QueryCommand({ TableName: this.tableName, IndexName: KEYS_BY_KEY_ID.indexName, ...withId.forQuery() }));
    const keyHash = found.Items?.[0]?.keyHash as string | undefined;
    if (!keyHash) return false;
    const ours = new Expression();
    ours.when(ours.is('keyId', '=', keyId), ours.is('factoryId', '=', factoryId));
    try {
      await this.doc.send(new DeleteCommand({ TableName: this.tableName, Key: { keyHash }, ...ours.forCondition() }));
      return true;
    } catch (error) {
      if (isConditionalCheckFailed(error)) return false;
      throw error;
    }
  }
}
