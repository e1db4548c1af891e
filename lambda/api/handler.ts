import { createDocumentClient, dynamoConfigFromEnv } from '../store/dynamo-client';
import { tableNamesFromEnv } from '../store/schema';
import { createApiHandler } from './app';
import { dynamoDependencies } from './dynamo-dependencies';

// Once per container: the client (and its keep-alive sockets) serves every invocation.
const doc = createDocumentClient(dynamoConfigFromEnv());

/** The Lambda entry point (API Gateway REST, Lambda proxy integration). */
export const handler = createApiHandler(dynamoDependencies(doc, tableNamesFromEnv()));
