import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { IssueAliases } from '../../../ingest/tally/ports';
import { batchGet } from '../batch-get';
import { isConditionalCheckFailed, itemOfFailure, storageCall } from '../errors';

/**
 * Issue aliases on the reports table (docs/source-maps.md#no-issue-splits): one item per factory and
 * fingerprint hash, `alias#<factory>#<hash>`, holding the issue under `issue` (never `issueId`, which would put
 * it in the byIssue index; no `feed`, so in no index). Written once, by a PutItem on condition that none is
 * there; a refused one returns the item that won. No time to live: an alias of an issue that expired points at
 * an id the tally opens again when the bug comes back, which is what keeps it one issue (about 120 bytes per
 * hash: docs/capacity.md).
 */
export const aliasKey = (factoryId: string, hash: string): string => `alias#${factoryId}#${hash}`;
const ALIAS_ISSUE_ATTRIBUTE = 'issue';
/** Ties a container keeps: they never change, so never stale; cleared whole when full. */
const KEPT_TIES = 100_000;

export class DynamoIssueAliases implements IssueAliases {
  private readonly known = new Map<string, string>();

  constructor(
    private readonly doc: DynamoDBDocumentClient,
    private readonly tableName: string,
  ) {}

  async issuesOfHashes(factoryId: string, hashes: readonly string[]): Promise<Map<string, string>> {
    const found = new Map<string, string>();
    const unknown: string[] = [];
    for (const hash of new Set(hashes)) {
      const issue = this.known.get(aliasKey(factoryId, hash));
      if (issue === undefined) unknown.push(hash);
      else found.set(hash, issue);
    }
    if (unknown.length === 0) return found;
    const items = await batchGet<Record<string, unknown>>(
      this.doc,
      this.tableName,
      unknown.map((hash) => ({ pk: aliasKey(factoryId, hash) })),
      {
        operation: 'BatchGetItem (issue aliases)',
        consistentRead: true,
      },
    );
    const prefix = aliasKey(factoryId, '');
    for (const item of items) {
      const issue = item[ALIAS_ISSUE_ATTRIBUTE];
      if (typeof issue !== 'string') continue;
      const hash = String(item.pk).slice(prefix.length);
      found.set(hash, issue);
      this.remember(aliasKey(factoryId, hash), issue);
    }
    return found;
  }

  async tieHashes(factoryId: string, ties: ReadonlyMap<string, string>): Promise<Map<string, string>> {
    const settled = await Promise.all(
      [...ties].map(async ([hash, issue]) => {
        const pk = aliasKey(factoryId, hash);
        try {
          await storageCall('PutItem (issue alias)', () =>
            this.doc.send(
              new PutCommand({
                TableName: this.tableName,
                Item: { pk, [ALIAS_ISSUE_ATTRIBUTE]: issue },
                ConditionExpression: 'attribute_not_exists(pk)',
                ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
              }),
            ),
          );
          this.remember(pk, issue);
          return [hash, issue] as const;
        } catch (error) {
          if (!isConditionalCheckFailed(error)) throw error;
          const winner = itemOfFailure<Record<string, unknown>>(error)?.[ALIAS_ISSUE_ATTRIBUTE];
          const tied = typeof winner === 'string' ? winner : issue;
          this.remember(pk, tied);
          return [hash, tied] as const;
        }
      }),
    );
    return new Map(settled);
  }

  private remember(key: string, issue: string): void {
    if (this.known.size >= KEPT_TIES) this.known.clear();
    this.known.set(key, issue);
  }
}
