import { createApiHandler } from './app';
import { containerDependencies } from './dynamo-dependencies';

/** The Lambda entry point (API Gateway REST, Lambda proxy integration), wired once per container. */
export const handler = createApiHandler(containerDependencies());
