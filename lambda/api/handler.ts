import { containerDependencies } from './contacts/dynamo-dependencies';
import { createContactsHandler } from './contacts/routes';

/** The contacts Lambda's entry point (API Gateway REST, Lambda proxy integration), wired once per container. */
export const handler = createContactsHandler(containerDependencies());
