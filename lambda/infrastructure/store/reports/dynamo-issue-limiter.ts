import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { intervalUs, toleranceUs } from '../../../kernel/rate-limit';
import { issueRequestPolicy } from '../../../ingest/limits';
import type { Admission, IssueLimiter, PublishableKey } from '../../../ingest/ports';
import { RateLeases } from '../rate-leases';
import { EXPIRES_AT, issueLimiterKey } from '../schema';

/** How long an issue's lease of requests may be handed out in one container. */
export const ISSUE_LEASE_MS = 1000;

/**
 * Per-issue limits (ports.ts, IssueLimiter) on their own small items in the
 * reports table, one per key and issue, taken in leases (rate-leases.ts): the
 * item is written once per lease per container, never once per request, and
 * expires (TTL) once idle. Each issue of a request is counted in parallel.
 */
export class DynamoIssueLimiter implements IssueLimiter {
  private readonly leases: RateLeases;

  constructor(
    doc: DynamoDBDocumentClient,
    private readonly tableName: string,
    leaseMs: number = ISSUE_LEASE_MS,
  ) {
    this.leases = new RateLeases(doc, leaseMs);
  }

  async admit(key: PublishableKey, issueIds: readonly string[], nowMs: number): Promise<Map<string, Admission>> {
    const policy = issueRequestPolicy(key.rateLimit);
    // Past every TAT a lease can set, the item is idle: DynamoDB may remove it then.
    const horizonSeconds = Math.ceil((intervalUs(policy) * (policy.burst + 2) + toleranceUs(policy)) / 1e6) + 60;
    const answers = await Promise.all(
      issueIds.map(async (issueId): Promise<[string, Admission]> => {
        const pk = issueLimiterKey(key.keyId, issueId);
        const taken = await this.leases.take(
          pk,
          {
            operation: 'UpdateItem (issue lease)',
            tableName: this.tableName,
            key: { pk },
            tatAttribute: 'tat',
            tokenAttribute: 'lastRequest',
            policy,
            alsoSet: (expression, at) => expression.set(EXPIRES_AT, Math.ceil(at / 1000) + horizonSeconds),
          },
          nowMs,
        );
        return [issueId, taken.outcome === 'limited' ? { admitted: false, retryAfterSeconds: taken.retryAfterSeconds } : { admitted: true }];
      }),
    );
    return new Map(answers);
  }
}
