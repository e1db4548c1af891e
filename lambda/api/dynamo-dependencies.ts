import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoContactStore } from '../store/dynamo-contact-store';
import { DynamoKeyAuthorizer } from '../store/dynamo-key-authorizer';
import type { TableNames } from '../store/schema';
import type { ApiDependencies } from './app';

/**
 * The API's stores on DynamoDB, as the Lambda entry point wires them: one
 * client shared by both (so one set of keep-alive sockets and one key cache
 * per container). Tests and the benchmark call it with a client of their own.
 */
export function dynamoDependencies(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'contacts' | 'keys'>): ApiDependencies {
  return { contacts: new DynamoContactStore(doc, tables.contacts), keys: new DynamoKeyAuthorizer(doc, tables.keys) };
}
