import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { DynamoContactStore } from '../store/dynamo-contact-store';
import { DynamoKeyAuthorizer } from '../store/dynamo-key-authorizer';
import { tableNamesFromEnv } from '../store/schema';
import { createApiHandler } from './app';

// Once per container: the client (and its keep-alive sockets) serves every invocation.
const tables = tableNamesFromEnv();
const doc = createDocumentClient(dynamoConfigFromEnv());

/** The Lambda entry point (API Gateway REST, Lambda proxy integration). */
export const handler = createApiHandler({
  contacts: new DynamoContactStore(doc, tables.contacts),
  keys: new DynamoKeyAuthorizer(doc, tables.keys),
});
