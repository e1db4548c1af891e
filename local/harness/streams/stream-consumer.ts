import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';

/** The event a consumer's handler gets: Lambda's DynamoDB stream event, with the shard a tumbling window names. */
export type LocalStreamEvent = DynamoDBStreamEvent & { shardId: string; state: Record<string, never> };

/** One reader of a table's stream: one event source mapping on AWS. */
export interface StreamConsumer {
  name: string;
  /** Which records it gets: its event source mapping's filter on AWS. */
  accepts(record: DynamoDBRecord): boolean;
  handle(event: LocalStreamEvent): Promise<unknown>;
}
