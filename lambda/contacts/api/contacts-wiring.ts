import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient, dynamoConfigFromEnv } from '../../infrastructure/store/dynamo-client';
import { DynamoContactStore } from '../../infrastructure/store/contacts/dynamo-contact-store';
import { DynamoKeyAuthorizer } from '../../infrastructure/store/keys/dynamo-key-authorizer';
import { tableNamesFromEnv, type TableNames } from '../../infrastructure/store/schema';
import type { ContactsDependencies } from './routes';

/**
 * The contacts API's wiring: with ingest/ingest-wiring.ts, the only
 * modules of lambda/infrastructure/http that know the stores are DynamoDB. One client shared
 * by the API's stores (so one set of keep-alive sockets and one key cache per
 * container). Tests and the benchmark call this with a client of their own.
 */
export function dynamoDependencies(doc: DynamoDBDocumentClient, tables: Pick<TableNames, 'contacts' | 'keys'>): ContactsDependencies {
  return { contacts: new DynamoContactStore(doc, tables.contacts), keys: new DynamoKeyAuthorizer(doc, tables.keys) };
}

/** What the contacts Lambda entry point runs on: the client and table names from the function's environment. */
export function containerDependencies(env: NodeJS.ProcessEnv = process.env): ContactsDependencies {
  return dynamoDependencies(createDocumentClient(dynamoConfigFromEnv(env)), tableNamesFromEnv(env));
}
