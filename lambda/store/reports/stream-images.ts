import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';

/** A DynamoDB stream record's images as plain objects: the item before the write and after it (absent for an insert, a removal). */
export function imagesOf(record: DynamoDBRecord): { before?: Record<string, unknown>; after?: Record<string, unknown> } {
  const image = (raw: unknown) => (raw ? unmarshall(raw as Record<string, AttributeValue>) : undefined);
  const before = image(record.dynamodb?.OldImage);
  const after = image(record.dynamodb?.NewImage);
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
