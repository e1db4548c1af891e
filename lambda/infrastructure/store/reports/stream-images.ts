import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Issue } from '../../../ingest/issues/issue';
import { issueOfImage } from './issue-items';

/**
 * A reports-table stream record as the write of an issue it shows: the
 * issue before the write and after it (absent for a new issue, a removal,
 * or a record of another kind of item). The notifier reads the stream
 * through this alone, so it knows no item layout.
 */
export function issueChangeOf(record: DynamoDBRecord): { before?: Issue; after?: Issue } {
  const issue = (raw: unknown) => (raw ? issueOfImage(unmarshall(raw as Record<string, AttributeValue>)) : undefined);
  const before = issue(record.dynamodb?.OldImage);
  const after = issue(record.dynamodb?.NewImage);
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
