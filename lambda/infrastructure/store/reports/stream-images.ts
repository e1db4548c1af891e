import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DynamoDBRecord } from 'aws-lambda';
import type { Issue } from '../../../ingest/issues/issue';
import type { ReleaseHourSnapshot } from '../../../alerts/release-triggers';
import { issueOfImage } from './issue-items';
import { countersOf, RELEASE_HOUR_PREFIX } from './release-items';

type Image = Record<string, AttributeValue>;

/** A release hour item's image as the alert rule reads it: its release by name, its hour, sessions started and crashed. */
function releaseHourOf(item: Record<string, unknown>): ReleaseHourSnapshot | undefined {
  const { factoryId, environment, release, hour } = item;
  if (typeof factoryId !== 'string' || typeof environment !== 'string' || typeof release !== 'string' || typeof hour !== 'number') return undefined;
  const { started, crashed } = countersOf(item);
  return { factoryId, environment, release, hour, started, crashed };
}

/**
 * A reports-table stream record as the write it shows: of an issue, the
 * issue before the write and after it (absent for a new issue, a removal,
 * or a record of another kind of item); of a release hour's counters, the
 * hour's health before and after. The notifier reads the stream through
 * this alone, so it knows no item layout.
 */
export function issueChangeOf(record: DynamoDBRecord): {
  before?: Issue;
  after?: Issue;
  releaseHour?: { before?: ReleaseHourSnapshot; after?: ReleaseHourSnapshot; at?: string };
} {
  const oldImage = record.dynamodb?.OldImage as Image | undefined;
  const newImage = record.dynamodb?.NewImage as Image | undefined;
  if ((record.dynamodb?.Keys?.pk?.S ?? '').startsWith(RELEASE_HOUR_PREFIX)) {
    const before = oldImage && releaseHourOf(unmarshall(oldImage));
    const after = newImage && releaseHourOf(unmarshall(newImage));
    // When the write was made (whole seconds, the same at every retry of the record): a release alert's time.
    const seconds = record.dynamodb?.ApproximateCreationDateTime;
    const at = typeof seconds === 'number' ? new Date(seconds * 1000).toISOString() : undefined;
    return { releaseHour: { ...(before ? { before } : {}), ...(after ? { after } : {}), ...(at ? { at } : {}) } };
  }
  const issue = (raw: Image | undefined) => (raw ? issueOfImage(unmarshall(raw)) : undefined);
  const before = issue(oldImage);
  const after = issue(newImage);
  return { ...(before ? { before } : {}), ...(after ? { after } : {}) };
}
